import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events, invoices, payments } from "../../src/server/db/schema";
import { createServiceContext } from "../../src/server/services/create-context";
import { expireDueInvoices } from "../../src/server/services/invoices/expire-due";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { externalId } from "../support/payments";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;
let other: TestMerchant;

const HOUR = 3_600_000;

beforeAll(async () => {
  runtime = await createTestRuntime({ env: { RATE_LIMIT_PER_KEY: "10000", PUBLIC_BASE_URL: "https://pay.shop.example/" } });
  api = testClient(runtime);
  shop = await registerTestMerchant(api);
  other = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

const createInvoice = (body: Record<string, unknown> = {}, key = shop.apiKey, headers?: Record<string, string>) =>
  api.post("/invoice", { key, body: { amount: "30.00", currency: "EUR", ...body }, headers });
const confirm = (body: Record<string, unknown>, key = shop.apiKey) =>
  api.post("/payment/confirm", { key, body: { externalId: externalId("inv"), currency: "EUR", ...body } });
const getInvoice = (id: string, key = shop.apiKey) => api.get(`/invoice/${id}`, { key });
const eventTypesFor = async (invoiceId: string) =>
  (await runtime.database.db.select().from(events).where(eq(events.subjectId, invoiceId)).orderBy(asc(events.createdAt), asc(events.id))).map(
    (event) => event.type,
  );
const sweep = () => expireDueInvoices({ ctx: createServiceContext(runtime, { type: "system" }, "req_sweep"), input: {} });

async function openInvoice(body: Record<string, unknown> = {}): Promise<string> {
  const created = await createInvoice(body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

describe("POST /invoice", () => {
  it("creates an open invoice with exact amounts, a checkout URL and an invoice.created event", async () => {
    const created = await createInvoice({ amount: "19.9", orderId: externalId("order"), description: "Beans", returnUrl: "https://shop.example/done", metadata: { a: 1 } });
    expect(created.status).toBe(201);
    const invoice = created.body;
    expect(invoice).toMatchObject({
      amount: "19.90",
      currency: "EUR",
      amountPaid: "0.00",
      amountPending: "0.00",
      amountRemaining: "19.90",
      status: "open",
      statusDetail: null,
      description: "Beans",
      metadata: { a: 1 },
      returnUrl: "https://shop.example/done",
      paidAt: null,
      expiredAt: null,
      voidedAt: null,
    });
    expect(invoice.id).toMatch(/^inv_[0-9a-z]{26}$/);
    expect(invoice.checkoutUrl).toBe(`https://pay.shop.example/pay/${invoice.id}`);
    expect(new Date(invoice.expiresAt).getTime() - new Date(invoice.createdAt).getTime()).toBe(3_600_000);
    expect(await eventTypesFor(invoice.id)).toEqual(["invoice.created"]);
  });

  it("refuses bad input with 400 naming each field, and writes nothing", async () => {
    const before = await runtime.database.db.select().from(invoices).where(eq(invoices.merchantId, shop.merchant.id));
    const answer = await createInvoice({ amount: "1.001", currency: "EUR", expiresIn: 59, returnUrl: "javascript:alert(1)", extra: true });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("validation_failed");
    const paths = answer.body.errors.map((error: { path: string }) => error.path);
    expect(paths).toEqual(expect.arrayContaining(["body.amount", "body.expiresIn", "body.returnUrl"]));
    expect((await createInvoice({ amount: "1", currency: "ZZZ" })).status).toBe(400);
    expect((await createInvoice({ expiresIn: 2_592_001 })).status).toBe(400);
    const after = await runtime.database.db.select().from(invoices).where(eq(invoices.merchantId, shop.merchant.id));
    expect(after).toHaveLength(before.length);
  });

  it("replays the stored answer for the same Idempotency-Key", async () => {
    const headers = { "idempotency-key": externalId("idem") };
    const first = await createInvoice({ amount: "5.00" }, shop.apiKey, headers);
    const second = await createInvoice({ amount: "5.00" }, shop.apiKey, headers);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body.id).toBe(first.body.id);
  });

  it("keeps orderId unique among the merchant's invoices that are not void, and frees it on void", async () => {
    const orderId = externalId("order");
    const first = await openInvoice({ orderId });
    const taken = await createInvoice({ orderId });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe("order_id_taken");
    // Another merchant's orders are its own.
    expect((await createInvoice({ orderId }, other.apiKey)).status).toBe(201);

    expect((await api.post(`/invoice/${first}/void`, { key: shop.apiKey })).status).toBe(200);
    expect((await createInvoice({ orderId })).status).toBe(201);
  });

  it("20 concurrent creates with one orderId: exactly one 201, the others 409 order_id_taken", async () => {
    const orderId = externalId("order");
    const answers = await Promise.all(Array.from({ length: 20 }, () => createInvoice({ orderId })));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409 && answer.body.code === "order_id_taken")).toHaveLength(19);
  });
});

describe("GET /invoice and /invoice/{id}", () => {
  it("answers 404 for another merchant's, an unknown and a malformed id", async () => {
    const id = await openInvoice();
    expect((await getInvoice(id, other.apiKey)).status).toBe(404);
    expect((await getInvoice("inv_01jd7z9e4f5g6h7j8k9m0n1p2q")).status).toBe(404);
    expect((await getInvoice("nonsense")).status).toBe(404);
    expect((await api.post(`/invoice/${id}/void`, { key: other.apiKey })).status).toBe(404);
  });

  it("lists newest first with filters and cursor paging, never another merchant's", async () => {
    const orderId = externalId("order");
    const ids = [await openInvoice({ orderId }), await openInvoice(), await openInvoice()];
    const byOrder = await api.get("/invoice", { key: shop.apiKey, query: { orderId } });
    expect(byOrder.body.data.map((invoice: { id: string }) => invoice.id)).toEqual([ids[0]]);

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await api.get("/invoice", { key: shop.apiKey, query: { limit: 2, ...(cursor ? { cursor } : {}) } });
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((invoice: { id: string }) => invoice.id));
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(0, 3)).toEqual([...ids].reverse());
    const others = await api.get("/invoice", { key: other.apiKey, query: { limit: 100 } });
    expect(others.body.data.some((invoice: { id: string }) => ids.includes(invoice.id))).toBe(false);

    const paid = await openInvoice({ amount: "1.00" });
    await confirm({ amount: "1.00", invoiceId: paid });
    const paidList = await api.get("/invoice", { key: shop.apiKey, query: { status: "paid", limit: 100 } });
    expect(paidList.body.data.map((invoice: { id: string }) => invoice.id)).toContain(paid);
    expect(paidList.body.data.every((invoice: { status: string }) => invoice.status === "paid")).toBe(true);
    expect((await api.get("/invoice", { key: shop.apiKey, query: { status: "nope" } })).status).toBe(400);
  });
});

describe("payments attach by invoiceId", () => {
  it("partial, then pending covering the rest (processing), then confirmed (paid): amounts and events", async () => {
    const id = await openInvoice({ amount: "30.00" });
    const part = await confirm({ amount: "10", invoiceId: id });
    expect(part.status).toBe(201);
    expect((await getInvoice(id)).body).toMatchObject({ status: "open", statusDetail: "partially_paid", amountPaid: "10.00", amountRemaining: "20.00" });

    const pendingId = externalId("pending");
    await confirm({ externalId: pendingId, amount: "20.00", status: "pending", invoiceId: id });
    expect((await getInvoice(id)).body).toMatchObject({ status: "processing", amountPaid: "10.00", amountPending: "20.00", amountRemaining: "20.00" });

    // Confirming without repeating the invoiceId still applies to the invoice the payment is attached to.
    await confirm({ externalId: pendingId, amount: "20.00", status: "confirmed" });
    const paid = (await getInvoice(id)).body;
    expect(paid).toMatchObject({ status: "paid", statusDetail: null, amountPaid: "30.00", amountPending: "0.00", amountRemaining: "0.00" });
    expect(paid.paidAt).not.toBeNull();
    expect(paid.payments.map((payment: { amount: string }) => payment.amount)).toEqual(["10.00", "20.00"]);
    expect(await eventTypesFor(id)).toEqual([
      "invoice.created",
      "invoice.payment_received",
      "invoice.payment_received",
      "invoice.processing",
      "invoice.payment_received",
      "invoice.paid",
    ]);
  });

  it("an overpayment is paid with statusDetail overpaid; a later payment on a paid invoice only adds to it", async () => {
    const id = await openInvoice({ amount: "30.00" });
    await confirm({ amount: "31.50", invoiceId: id });
    expect((await getInvoice(id)).body).toMatchObject({ status: "paid", statusDetail: "overpaid", amountPaid: "31.50", amountRemaining: "0.00" });
    await confirm({ amount: "1.00", invoiceId: id });
    expect((await getInvoice(id)).body).toMatchObject({ status: "paid", amountPaid: "32.50" });
    expect((await eventTypesFor(id)).filter((type) => type === "invoice.paid")).toHaveLength(1);
  });

  it("a replayed confirm counts once", async () => {
    const id = await openInvoice({ amount: "30.00" });
    const body = { externalId: externalId("replay"), amount: "10.00", invoiceId: id };
    await confirm(body);
    await confirm(body);
    await confirm(body);
    expect((await getInvoice(id)).body.amountPaid).toBe("10.00");
    expect((await eventTypesFor(id)).filter((type) => type === "invoice.payment_received")).toHaveLength(1);
  });

  it("another currency: 409 currency_mismatch and nothing recorded", async () => {
    const id = await openInvoice();
    const ext = externalId("usd");
    const answer = await confirm({ externalId: ext, amount: "30.00", currency: "USD", invoiceId: id });
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe("currency_mismatch");
    expect(await runtime.database.db.select().from(payments).where(eq(payments.externalId, ext))).toHaveLength(0);
    expect(await eventTypesFor(id)).toEqual(["invoice.created"]);
  });

  it("an unknown or another merchant's inv_ id: 404 invoice_not_found, nothing recorded; other ids stay free-form", async () => {
    const theirs = (await createInvoice({}, other.apiKey)).body.id;
    for (const invoiceId of [theirs, "inv_01jd7z9e4f5g6h7j8k9m0n1p2q", "inv_junk"]) {
      const ext = externalId("unknown");
      const answer = await confirm({ externalId: ext, amount: "1.00", invoiceId });
      expect(answer.status, invoiceId).toBe(404);
      expect(answer.body.code).toBe("invoice_not_found");
      expect(await runtime.database.db.select().from(payments).where(eq(payments.externalId, ext))).toHaveLength(0);
    }
    expect((await getInvoice(theirs, other.apiKey)).body.amountPaid).toBe("0.00");
    expect((await confirm({ amount: "1.00", invoiceId: "INV-2026-0042" })).status).toBe(201);
  });

  it("a void invoice refuses payments (409 invoice_not_payable) but accepts a failed one", async () => {
    const id = await openInvoice();
    expect((await api.post(`/invoice/${id}/void`, { key: shop.apiKey })).body).toMatchObject({ status: "void" });
    const refused = await confirm({ amount: "30.00", invoiceId: id });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("invoice_not_payable");
    expect((await confirm({ amount: "30.00", status: "failed", invoiceId: id })).status).toBe(201);
    expect((await getInvoice(id)).body).toMatchObject({ status: "void", amountPaid: "0.00" });
  });

  it("an attached payment cannot move to another invoice (409 payment_conflict)", async () => {
    const [first, second] = [await openInvoice(), await openInvoice()];
    const ext = externalId("move");
    await confirm({ externalId: ext, amount: "5.00", status: "pending", invoiceId: first });
    const moved = await confirm({ externalId: ext, amount: "5.00", status: "confirmed", invoiceId: second });
    expect(moved.status).toBe(409);
    expect(moved.body.code).toBe("payment_conflict");
    expect((await getInvoice(first)).body).toMatchObject({ amountPending: "5.00" });
  });

  it("a pending payment that fails takes a processing invoice back to open", async () => {
    const id = await openInvoice({ amount: "30.00" });
    const ext = externalId("fails");
    await confirm({ externalId: ext, amount: "30.00", status: "pending", invoiceId: id });
    expect((await getInvoice(id)).body.status).toBe("processing");
    await confirm({ externalId: ext, amount: "30.00", status: "failed" });
    expect((await getInvoice(id)).body).toMatchObject({ status: "open", amountPending: "0.00", amountPaid: "0.00" });
  });
});

describe("expiry, late payments, void", () => {
  it("a read after expiresAt never shows open, before and after the sweep; the sweep emits invoice.expired once", async () => {
    const id = await openInvoice({ expiresIn: 60 });
    const partial = await openInvoice({ expiresIn: 60 });
    await confirm({ amount: "1.00", invoiceId: partial });
    runtime.advanceTime(60_000);
    // Not swept yet: the stored row still says open.
    const [stored] = await runtime.database.db.select().from(invoices).where(eq(invoices.id, id));
    expect(stored!.status).toBe("open");
    const read = (await getInvoice(id)).body;
    expect(read).toMatchObject({ status: "expired", expiredAt: read.expiresAt });
    expect((await getInvoice(partial)).body).toMatchObject({ status: "expired", statusDetail: "partially_paid" });
    const listed = await api.get("/invoice", { key: shop.apiKey, query: { status: "open", limit: 100 } });
    expect(listed.body.data.map((invoice: { id: string }) => invoice.id)).not.toContain(id);
    const expiredList = await api.get("/invoice", { key: shop.apiKey, query: { status: "expired", limit: 100 } });
    expect(expiredList.body.data.map((invoice: { id: string }) => invoice.id)).toContain(id);

    expect(await sweep()).toBeGreaterThanOrEqual(2);
    expect(await sweep()).toBe(0);
    expect((await getInvoice(id)).body).toEqual(read);
    expect(await eventTypesFor(id)).toEqual(["invoice.created", "invoice.expired"]);
  });

  it("paid within the grace period → paid, paid_late; past it → 409 invoice_not_payable", async () => {
    const late = await openInvoice({ expiresIn: 60, amount: "30.00" });
    const tooLate = await openInvoice({ expiresIn: 60, amount: "30.00" });
    runtime.advanceTime(61_000);
    // Not swept: the confirm expires it first itself, so invoice.expired still comes once and before invoice.paid.
    const ok = await confirm({ amount: "30.00", invoiceId: late });
    expect(ok.status).toBe(201);
    expect((await getInvoice(late)).body).toMatchObject({ status: "paid", statusDetail: "paid_late", amountPaid: "30.00" });
    expect(await eventTypesFor(late)).toEqual(["invoice.created", "invoice.expired", "invoice.payment_received", "invoice.paid"]);

    runtime.advanceTime(24 * HOUR);
    const ext = externalId("too-late");
    const refused = await confirm({ externalId: ext, amount: "30.00", invoiceId: tooLate });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("invoice_not_payable");
    expect(await runtime.database.db.select().from(payments).where(eq(payments.externalId, ext))).toHaveLength(0);
    expect((await getInvoice(tooLate)).body).toMatchObject({ status: "expired", amountPaid: "0.00" });
  });

  it("void only from open or expired; a paid invoice answers 409 invalid_transition", async () => {
    const paid = await openInvoice({ amount: "2.00" });
    await confirm({ amount: "2.00", invoiceId: paid });
    const refused = await api.post(`/invoice/${paid}/void`, { key: shop.apiKey });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("invalid_transition");

    const expiring = await openInvoice({ expiresIn: 60 });
    runtime.advanceTime(60_000);
    const voided = await api.post(`/invoice/${expiring}/void`, { key: shop.apiKey });
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({ status: "void", statusDetail: null });
    expect(voided.body.voidedAt).not.toBeNull();
    expect(await eventTypesFor(expiring)).toEqual(["invoice.created", "invoice.expired", "invoice.voided"]);
    expect((await api.post(`/invoice/${expiring}/void`, { key: shop.apiKey })).body.code).toBe("invalid_transition");
  });
});

describe("GET /checkout/{id} (public)", () => {
  it("shows only the checkout's fields, without a key; unknown and malformed ids are 404", async () => {
    const id = await openInvoice({ orderId: externalId("secret-order"), metadata: { internal: "x" }, returnUrl: "https://shop.example/back", description: "Beans" });
    const checkout = await api.get(`/checkout/${id}`);
    expect(checkout.status).toBe(200);
    expect(Object.keys(checkout.body).sort()).toEqual(
      [
        "amount", "amountDue", "amountPaid", "amountPending", "amountRefunded", "amountRemaining", "currency", "description", "expiresAt", "id", "livemode", "merchantName",
        "merchantWebsite", "paidAt", "paymentInstructions", "paymentMethods", "returnUrl", "serverTime", "status", "statusDetail",
      ].sort(),
    );
    expect(checkout.body).toMatchObject({ id, merchantName: shop.merchant.name, description: "Beans", status: "open", returnUrl: null });
    expect((await api.get("/checkout/inv_01jd7z9e4f5g6h7j8k9m0n1p2q")).status).toBe(404);
    expect((await api.get("/checkout/../merchant")).status).toBe(404);

    await confirm({ amount: "30.00", invoiceId: id });
    expect((await api.get(`/checkout/${id}`)).body).toMatchObject({ status: "paid", returnUrl: "https://shop.example/back" });
  });
});
