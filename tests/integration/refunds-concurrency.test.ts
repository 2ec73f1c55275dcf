import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDecimals, compareDecimals } from "../../src/lib/money";
import { events, refunds } from "../../src/server/db/schema";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { externalId } from "../support/payments";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

// On the PostgreSQL server these run with 20 connections, so the requests really overlap in the database (the
// payment's row lock decides); on PGlite they interleave on its one connection.
let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime({ poolSize: 20, env: { RATE_LIMIT_PER_KEY: "10000" } });
  api = testClient(runtime);
  shop = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

const confirm = (body: Record<string, unknown>) => api.post("/payment/confirm", { key: shop.apiKey, body: { currency: "USD", ...body } });
const refund = (body: Record<string, unknown>) => api.post("/refund", { key: shop.apiKey, body });

async function refundsOf(paymentId: string) {
  return runtime.database.db.select().from(refunds).where(eq(refunds.paymentId, paymentId));
}

describe("never more than was paid, under concurrency", () => {
  it("50 concurrent partial refunds of one payment: the total never exceeds it; each refused one is 409 with the refundable amount", async () => {
    const payment = (await confirm({ externalId: externalId("fifty"), amount: "100.00" })).body;
    // 50 × 3.00 = 150.00 asked of 100.00: 33 fit (99.00), 17 cannot.
    const answers = await Promise.all(Array.from({ length: 50 }, () => refund({ paymentId: payment.id, amount: "3.00" })));
    const accepted = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(accepted).toHaveLength(33);
    expect(refused).toHaveLength(17);
    for (const answer of refused) {
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({ code: "refund_exceeds_payment", refundable: "1.00" });
    }
    const rows = await refundsOf(payment.id);
    expect(rows).toHaveLength(33);
    expect(compareDecimals(addDecimals(...rows.map((row) => row.amount)), "100.00")).toBeLessThanOrEqual(0);
    const created = await runtime.database.db.select().from(events).where(eq(events.type, "refund.created"));
    expect(created.filter((event) => (event.data as { paymentId: string }).paymentId === payment.id)).toHaveLength(33);
  });

  it("50 concurrent succeeded refunds of random amounts: the payment's amountRefunded is the exact sum, never above", async () => {
    const payment = (await confirm({ externalId: externalId("sum"), amount: "50.00" })).body;
    const amounts = Array.from({ length: 50 }, (_, i) => `${1 + (i % 4)}.${String((i * 7) % 100).padStart(2, "0")}`);
    const answers = await Promise.all(amounts.map((amount) => refund({ paymentId: payment.id, amount, status: "succeeded" })));
    expect(answers.every((answer) => answer.status === 201 || answer.body.code === "refund_exceeds_payment")).toBe(true);
    const rows = await refundsOf(payment.id);
    const total = addDecimals(...rows.map((row) => row.amount));
    expect(compareDecimals(total, "50.00")).toBeLessThanOrEqual(0);
    const shown = (await api.get(`/payment/${payment.id}`, { key: shop.apiKey })).body;
    expect(compareDecimals(shown.amountRefunded, total)).toBe(0);
    expect(shown.refundStatus).toBe(compareDecimals(total, "50.00") === 0 ? "full" : "partial");
  });

  it("50 racing full refunds and cancels: at most one full refund holds the payment at any time", async () => {
    const payment = (await confirm({ externalId: externalId("full"), amount: "20.00" })).body;
    const answers = await Promise.all(Array.from({ length: 50 }, () => refund({ paymentId: payment.id })));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    const winner = answers.find((answer) => answer.status === 201)!.body;
    expect(winner.amount).toBe("20.00");
    // Cancel it while 20 more race for the freed amount: exactly one of them wins after the cancel.
    const [canceled, ...again] = await Promise.all([
      api.post(`/refund/${winner.id}/cancel`, { key: shop.apiKey }),
      ...Array.from({ length: 20 }, () => refund({ paymentId: payment.id })),
    ]);
    expect(canceled!.status).toBe(200);
    expect(again.filter((answer) => answer.status === 201).length).toBeLessThanOrEqual(1);
    const holding = (await refundsOf(payment.id)).filter((row) => row.status !== "canceled" && row.status !== "failed");
    expect(compareDecimals(addDecimals("0", ...holding.map((row) => row.amount)), "20.00")).toBeLessThanOrEqual(0);
  });
});

describe("refunds racing the payment's own transitions", () => {
  it("a pending payment raced by confirm, fail and refunds: refunds only ever land on a confirmed payment", async () => {
    for (let round = 0; round < 10; round++) {
      const ext = externalId("race");
      const payment = (await confirm({ externalId: ext, amount: "10.00", status: "pending" })).body;
      const outcome = round % 2 === 0 ? "confirmed" : "failed";
      const answers = await Promise.all([
        ...Array.from({ length: 5 }, () => refund({ paymentId: payment.id, amount: "1.00" })),
        confirm({ externalId: ext, amount: "10.00", status: outcome }),
        ...Array.from({ length: 5 }, () => refund({ paymentId: payment.id, amount: "1.00" })),
      ]);
      const refundAnswers = answers.filter((_, i) => i !== 5);
      for (const answer of refundAnswers) {
        if (answer.status !== 201) expect(answer.body.code).toBe("payment_not_refundable");
      }
      const rows = await refundsOf(payment.id);
      if (outcome === "failed") expect(rows).toHaveLength(0);
      // Whatever landed, landed after the confirm took the payment's lock, never on a pending or failed payment.
      expect(rows).toHaveLength(refundAnswers.filter((answer) => answer.status === 201).length);
      const final = (await api.get(`/payment/${payment.id}`, { key: shop.apiKey })).body;
      expect(final.status).toBe(outcome);
    }
  });

  it("a refund succeeding while another is created: amounts stay exact and under the payment", async () => {
    const payment = (await confirm({ externalId: externalId("mix"), amount: "12.00" })).body;
    const pending = await Promise.all(Array.from({ length: 4 }, () => refund({ paymentId: payment.id, amount: "3.00" })));
    const ids = pending.map((answer) => answer.body.id as string);
    const answers = await Promise.all([
      ...ids.map((id, i) => api.post(`/refund/${id}`, { key: shop.apiKey, body: { status: i % 2 ? "failed" : "succeeded" } })),
      ...Array.from({ length: 10 }, () => refund({ paymentId: payment.id, amount: "3.00" })),
    ]);
    expect(answers.slice(0, 4).every((answer) => answer.status === 200)).toBe(true);
    const rows = await refundsOf(payment.id);
    const holding = rows.filter((row) => row.status !== "failed" && row.status !== "canceled");
    expect(compareDecimals(addDecimals(...holding.map((row) => row.amount)), "12.00")).toBeLessThanOrEqual(0);
    const shown = (await api.get(`/payment/${payment.id}`, { key: shop.apiKey })).body;
    expect(shown.amountRefunded).toBe("6.00");
    expect(shown.refundStatus).toBe("partial");
  });
});
