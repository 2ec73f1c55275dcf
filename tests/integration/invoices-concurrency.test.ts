import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events, invoices } from "../../src/server/db/schema";
import { BACKGROUND_JOBS } from "../../src/server/background/jobs";
import { startScheduler } from "../../src/server/background/scheduler";
import { createServiceContext } from "../../src/server/services/create-context";
import { expireDueInvoices } from "../../src/server/services/invoices/expire-due";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { externalId } from "../support/payments";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

// On the PostgreSQL server these run with 20 connections, so the requests and sweeps really overlap in the
// database (the invoice's row lock, SKIP LOCKED); on PGlite they interleave on its one connection.
let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime({ poolSize: 20, env: { RATE_LIMIT_PER_KEY: "10000" } });
  api = testClient(runtime);
  shop = await registerTestMerchant(api, { webhookUrl: "https://hooks.example/invoices" });
});
afterAll(() => runtime.close());

const openInvoice = async (body: Record<string, unknown> = {}) => {
  const created = await api.post("/invoice", { key: shop.apiKey, body: { amount: "50.00", currency: "EUR", ...body } });
  expect(created.status).toBe(201);
  return created.body.id as string;
};
const confirm = (body: Record<string, unknown>) =>
  api.post("/payment/confirm", { key: shop.apiKey, body: { externalId: externalId("race"), currency: "EUR", ...body } });
const eventsOf = (ids: string[]) =>
  runtime.database.db.select().from(events).where(inArray(events.subjectId, ids)).orderBy(asc(events.createdAt), asc(events.id));
const count = (types: string[], type: string) => types.filter((candidate) => candidate === type).length;
const systemCtx = () => createServiceContext(runtime, { type: "system" }, "req_sweep");

describe("concurrent payments on one invoice", () => {
  it("50 different payments at once: exact amountPaid, 50 payment_received, exactly one invoice.paid", async () => {
    const id = await openInvoice({ amount: "50.00" });
    const answers = await Promise.all(Array.from({ length: 50 }, () => confirm({ amount: "1.00", invoiceId: id })));
    expect(answers.every((answer) => answer.status === 201), JSON.stringify(answers.map((answer) => answer.body))).toBe(true);

    const invoice = (await api.get(`/invoice/${id}`, { key: shop.apiKey })).body;
    expect(invoice).toMatchObject({ status: "paid", statusDetail: null, amountPaid: "50.00", amountRemaining: "0.00" });
    expect(invoice.payments).toHaveLength(50);
    const types = (await eventsOf([id])).map((event) => event.type);
    expect(count(types, "invoice.payment_received")).toBe(50);
    expect(count(types, "invoice.paid")).toBe(1);
    expect(types.at(-1)).toBe("invoice.paid");
  });

  it("60 different payments on an invoice of 50: all counted, paid once, overpaid", async () => {
    const id = await openInvoice({ amount: "50.00" });
    await Promise.all(Array.from({ length: 60 }, () => confirm({ amount: "1.00", invoiceId: id })));
    const invoice = (await api.get(`/invoice/${id}`, { key: shop.apiKey })).body;
    expect(invoice).toMatchObject({ status: "paid", statusDetail: "overpaid", amountPaid: "60.00" });
    expect(count((await eventsOf([id])).map((event) => event.type), "invoice.paid")).toBe(1);
  });

  it("50 identical confirms of one payment: counted once, one payment_received, one invoice.paid", async () => {
    const id = await openInvoice({ amount: "50.00" });
    const body = { externalId: externalId("same"), amount: "50.00", invoiceId: id };
    const answers = await Promise.all(Array.from({ length: 50 }, () => confirm(body)));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 201)).toBe(true);
    expect((await api.get(`/invoice/${id}`, { key: shop.apiKey })).body).toMatchObject({ status: "paid", amountPaid: "50.00" });
    expect((await eventsOf([id])).map((event) => event.type)).toEqual(["invoice.created", "invoice.payment_received", "invoice.paid"]);
  });

  it("25 pending payments confirmed at once: processing first, paid exactly once at the end", async () => {
    const id = await openInvoice({ amount: "25.00" });
    const ids = Array.from({ length: 25 }, () => externalId("pend"));
    await Promise.all(ids.map((ext) => confirm({ externalId: ext, amount: "1.00", status: "pending", invoiceId: id })));
    expect((await api.get(`/invoice/${id}`, { key: shop.apiKey })).body).toMatchObject({ status: "processing", amountPending: "25.00" });
    await Promise.all(ids.map((ext) => confirm({ externalId: ext, amount: "1.00", status: "confirmed" })));
    expect((await api.get(`/invoice/${id}`, { key: shop.apiKey })).body).toMatchObject({ status: "paid", amountPaid: "25.00", amountPending: "0.00" });
    const types = (await eventsOf([id])).map((event) => event.type);
    expect(count(types, "invoice.processing")).toBe(1);
    expect(count(types, "invoice.paid")).toBe(1);
  });
});

describe("expiry with several sweepers", () => {
  it("two sweepers racing over 40 due invoices (and confirms on some of them): each expires exactly once", async () => {
    const ids = await Promise.all(Array.from({ length: 40 }, () => openInvoice({ expiresIn: 60 })));
    runtime.advanceTime(60_000);
    const sweeps = Array.from({ length: 6 }, () => expireDueInvoices({ ctx: systemCtx(), input: { limit: 10 } }));
    // Late partial payments racing the sweeps: either the sweep or the confirm expires the invoice, never both.
    const payments = ids.slice(0, 10).map((id) => confirm({ amount: "1.00", invoiceId: id }));
    await Promise.all([...sweeps, ...payments]);
    while ((await expireDueInvoices({ ctx: systemCtx(), input: {} })) > 0);

    const rows = await runtime.database.db.select().from(invoices).where(inArray(invoices.id, ids));
    expect(rows.every((row) => row.status === "expired")).toBe(true);
    const expired = (await eventsOf(ids)).filter((event) => event.type === "invoice.expired");
    expect(expired).toHaveLength(40);
    expect(new Set(expired.map((event) => event.subjectId)).size).toBe(40);
    // The ones paid late in part show it.
    expect(rows.filter((row) => row.statusDetail === "partially_paid")).toHaveLength(10);
  });

  it("two running sweeper loops expire an invoice within 5 s of expiresAt, once", async () => {
    const sweep = { ...BACKGROUND_JOBS.find((job) => job.name === "invoice-expiry")!, everyMs: 200 };
    const first = startScheduler(runtime, [sweep]);
    const second = startScheduler(runtime, [sweep]);
    try {
      const id = await openInvoice({ expiresIn: 60 });
      runtime.advanceTime(60_000);
      const started = Date.now();
      let status = "open";
      while (status !== "expired" && Date.now() - started < 5_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const [row] = await runtime.database.db.select().from(invoices).where(eq(invoices.id, id));
        status = row!.status;
      }
      expect(status).toBe("expired");
      expect(Date.now() - started).toBeLessThan(5_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await eventsOf([id])).map((event) => event.type)).toEqual(["invoice.created", "invoice.expired"]);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });
});
