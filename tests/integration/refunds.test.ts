import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliveryDepsFor } from "../../src/server/background/start";
import { events, refunds } from "../../src/server/db/schema";
import { createServiceContext } from "../../src/server/services/create-context";
import { expireRefundClaims } from "../../src/server/services/refunds/expire-claims";
import { deliverDueNow } from "../support/deliver-due-now";
import { testClient, type TestClient } from "../support/client";
import { createTestKey, registerTestMerchant, type TestMerchant } from "../support/merchants";
import { externalId } from "../support/payments";
import { rowCounter } from "../support/row-counts";
import { createTestRuntime, type TestRuntime } from "../support/runtime";
import { startReceiver, type TestReceiver } from "./webhooks/receiver";

let runtime: TestRuntime;
let api: TestClient;
let receiver: TestReceiver;
let shop: TestMerchant;
let other: TestMerchant;
let testKey: string;
let countRows: () => Promise<Record<string, number>>;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  receiver = await startReceiver();
  shop = await registerTestMerchant(api, { webhookUrl: receiver.url() });
  other = await registerTestMerchant(api);
  testKey = await createTestKey(api, shop);
  countRows = await rowCounter(runtime.database.db);
});
afterAll(async () => {
  await receiver.close();
  await runtime.close();
});

async function confirmed(body: Record<string, unknown> = {}, key = shop.apiKey) {
  const answer = await api.post("/payment/confirm", { key, body: { externalId: externalId("pay"), amount: "100.00", currency: "USD", ...body } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { id: string; amount: string; currency: string };
}
const refund = (body: Record<string, unknown>, key = shop.apiKey, headers?: Record<string, string>) => api.post("/refund", { key, body, headers });

describe("POST refund: recorded refunds", () => {
  it("defaults to the whole refundable amount, pending; succeeded later updates the payment and sends refund.succeeded signed", async () => {
    const payment = await confirmed();
    const created = await refund({ paymentId: payment.id, reason: "order_canceled", note: "box came back" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ paymentId: payment.id, amount: "100.00", currency: "USD", status: "pending", reason: "order_canceled", claimUrl: null });
    expect(created.body.id).toMatch(/^re_/);
    expect((await api.get(`/payment/${payment.id}`, { key: shop.apiKey })).body).toMatchObject({ amountRefunded: "0.00", refundStatus: "none" });

    const moved = await api.post(`/refund/${created.body.id}`, { key: shop.apiKey, body: { status: "succeeded", externalId: externalId("re") } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ status: "succeeded" });
    expect(moved.body.succeededAt).not.toBeNull();
    expect((await api.get(`/payment/${payment.id}`, { key: shop.apiKey })).body).toMatchObject({ amountRefunded: "100.00", refundStatus: "full" });

    // The same status again: 200, nothing new.
    const again = await api.post(`/refund/${created.body.id}`, { key: shop.apiKey, body: { status: "succeeded" } });
    expect(again.status).toBe(200);
    const emitted = await runtime.database.db.select().from(events).where(eq(events.subjectId, created.body.id));
    expect(emitted.map((event) => event.type).sort()).toEqual(["refund.created", "refund.succeeded"]);

    await deliverDueNow(deliveryDepsFor(runtime));
    const verifier = new Webhook(shop.webhookSecret);
    const bodies = receiver.received
      .map((request) => verifier.verify(request.body, request.headers) as { type: string; data: { id: string; status: string; amount: string } })
      .filter((body) => body.data.id === created.body.id);
    expect(bodies.map((body) => `${body.type} ${body.data.status}`).sort()).toEqual(["refund.created pending", "refund.succeeded succeeded"]);
  });

  it("partial refunds: partial then full; a succeeded refund recorded at once; the refundable amount shrinks", async () => {
    const payment = await confirmed({ amount: "30.00" });
    const first = await refund({ paymentId: payment.id, amount: "10", status: "succeeded" });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ amount: "10.00", status: "succeeded" });
    expect((await api.get(`/payment/${payment.id}`, { key: shop.apiKey })).body).toMatchObject({ amountRefunded: "10.00", refundStatus: "partial" });
    const over = await refund({ paymentId: payment.id, amount: "20.01" });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: "refund_exceeds_payment", refundable: "20.00" });
    expect(over.body.errors).toEqual([{ path: "body.amount", message: expect.stringContaining("20.00") }]);
    const rest = await refund({ paymentId: payment.id, status: "succeeded" });
    expect(rest.body).toMatchObject({ amount: "20.00" });
    expect((await api.get(`/payment/${payment.id}`, { key: shop.apiKey })).body).toMatchObject({ amountRefunded: "30.00", refundStatus: "full" });
    const none = await refund({ paymentId: payment.id, amount: "0.01" });
    expect(none.body).toMatchObject({ code: "refund_exceeds_payment", refundable: "0.00" });
  });

  it("failed and canceled refunds free their amount again", async () => {
    const payment = await confirmed({ amount: "10.00" });
    const a = await refund({ paymentId: payment.id });
    expect((await refund({ paymentId: payment.id, amount: "1.00" })).body.code).toBe("refund_exceeds_payment");
    expect((await api.post(`/refund/${a.body.id}`, { key: shop.apiKey, body: { status: "failed", failureReason: "account_closed" } })).body).toMatchObject({
      status: "failed",
      failureReason: "account_closed",
    });
    const b = await refund({ paymentId: payment.id, amount: "4.00" });
    expect(b.status).toBe(201);
    expect((await api.post(`/refund/${b.body.id}/cancel`, { key: shop.apiKey })).body).toMatchObject({ status: "canceled" });
    expect((await refund({ paymentId: payment.id })).body).toMatchObject({ amount: "10.00" });
  });

  it("externalId: a second POST refund answers 200 with the same refund and moves it on like payment/confirm", async () => {
    const payment = await confirmed({ amount: "50.00" });
    const ext = externalId("proc");
    const first = await refund({ paymentId: payment.id, amount: "5.00", externalId: ext });
    expect(first.status).toBe(201);
    const same = await refund({ paymentId: payment.id, amount: "5.00", externalId: ext });
    expect(same.status).toBe(200);
    expect(same.body.id).toBe(first.body.id);
    const done = await refund({ paymentId: payment.id, externalId: ext, status: "succeeded" });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: first.body.id, status: "succeeded" });
    const back = await refund({ paymentId: payment.id, externalId: ext, status: "pending" });
    expect(back.status).toBe(409);
    expect(back.body.code).toBe("invalid_transition");
    const otherAmount = await refund({ paymentId: payment.id, externalId: ext, amount: "6.00" });
    expect(otherAmount.body).toMatchObject({ code: "refund_conflict", errors: [{ path: "body.amount" }] });
    const otherPayment = await confirmed();
    const moved = await refund({ paymentId: otherPayment.id, externalId: ext });
    expect(moved.body).toMatchObject({ code: "refund_conflict", errors: [{ path: "body.paymentId" }] });
  });

  it("state machine: only requires_action/pending cancel; succeeded, failed and canceled are final", async () => {
    const payment = await confirmed();
    const done = await refund({ paymentId: payment.id, amount: "1.00", status: "succeeded" });
    for (const attempt of [
      api.post(`/refund/${done.body.id}/cancel`, { key: shop.apiKey }),
      api.post(`/refund/${done.body.id}`, { key: shop.apiKey, body: { status: "failed" } }),
      api.post(`/refund/${done.body.id}`, { key: shop.apiKey, body: { status: "pending" } }),
    ]) {
      const answer = await attempt;
      expect(answer.status).toBe(409);
      expect(answer.body.code).toBe("invalid_transition");
    }
    const claim = await refund({ paymentId: payment.id, amount: "1.00", claim: {} });
    expect(claim.body.status).toBe("requires_action");
    const skip = await api.post(`/refund/${claim.body.id}`, { key: shop.apiKey, body: { status: "succeeded" } });
    expect(skip.body.code).toBe("invalid_transition");
    expect((await api.post(`/refund/${claim.body.id}`, { key: shop.apiKey, body: { status: "pending" } })).body.status).toBe("pending");
  });

  it("Idempotency-Key: the same key and body replays the first answer and records one refund", async () => {
    const payment = await confirmed();
    const headers = { "idempotency-key": externalId("idem") };
    const first = await refund({ paymentId: payment.id, amount: "3.00" }, shop.apiKey, headers);
    const replay = await refund({ paymentId: payment.id, amount: "3.00" }, shop.apiKey, headers);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.id).toBe(first.body.id);
    const rows = await runtime.database.db.select().from(refunds).where(eq(refunds.paymentId, payment.id));
    expect(rows).toHaveLength(1);
  });
});

describe("bad input: a 4xx problem with a stable code and the failing field, nothing written", () => {
  let usd: { id: string };
  let pending: { id: string };
  let failed: { id: string };
  let foreign: { id: string };
  let testPayment: { id: string };

  beforeAll(async () => {
    usd = await confirmed({ amount: "10.00" });
    pending = await confirmed({ status: "pending" });
    failed = await confirmed({ status: "failed" });
    foreign = await confirmed({}, other.apiKey);
    testPayment = await confirmed({}, testKey);
  });

  const cases: [string, () => Record<string, unknown>, number, string, string][] = [
    ["more decimals than the currency", () => ({ paymentId: usd.id, amount: "1.001" }), 400, "validation_failed", "body.amount"],
    ["zero", () => ({ paymentId: usd.id, amount: "0" }), 400, "validation_failed", "body.amount"],
    ["zero with decimals", () => ({ paymentId: usd.id, amount: "0.00" }), 400, "validation_failed", "body.amount"],
    ["negative", () => ({ paymentId: usd.id, amount: "-1.00" }), 400, "validation_failed", "body.amount"],
    ["a number, not a string", () => ({ paymentId: usd.id, amount: 5 }), 400, "validation_failed", "body.amount"],
    ["above what is refundable", () => ({ paymentId: usd.id, amount: "10.01" }), 409, "refund_exceeds_payment", "body.amount"],
    ["another currency", () => ({ paymentId: usd.id, amount: "1.00", currency: "EUR" }), 409, "currency_mismatch", "body.currency"],
    ["a pending payment", () => ({ paymentId: pending.id }), 409, "payment_not_refundable", "body.paymentId"],
    ["a failed payment", () => ({ paymentId: failed.id }), 409, "payment_not_refundable", "body.paymentId"],
    ["another merchant's payment", () => ({ paymentId: foreign.id }), 404, "not_found", "body.paymentId"],
    ["a test payment with a live key", () => ({ paymentId: testPayment.id }), 404, "not_found", "body.paymentId"],
    ["an unknown payment", () => ({ paymentId: "pay_01jd7z9k2q3r4s5t6v7w8x9y0z" }), 404, "not_found", "body.paymentId"],
    ["no paymentId", () => ({ amount: "1.00" }), 400, "validation_failed", "body.paymentId"],
    ["an unknown reason", () => ({ paymentId: usd.id, reason: "because" }), 400, "validation_failed", "body.reason"],
    ["an unknown field", () => ({ paymentId: usd.id, refundAll: true }), 400, "validation_failed", "body.refundAll"],
    ["claim with a status", () => ({ paymentId: usd.id, claim: {}, status: "succeeded" }), 400, "validation_failed", "body.status"],
    ["a claim expiring too soon", () => ({ paymentId: usd.id, claim: { expiresIn: 60 } }), 400, "validation_failed", "body.claim.expiresIn"],
    ["status canceled at creation", () => ({ paymentId: usd.id, status: "canceled" }), 400, "validation_failed", "body.status"],
  ];

  it.each(cases)("%s", async (_name, body, status, code, path) => {
    const before = await countRows();
    const answer = await refund(body());
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body.code).toBe(code);
    expect(answer.body.errors?.map((error: { path: string }) => error.path) ?? []).toContain(path);
    expect(await countRows()).toEqual(before);
  });

  it("the other merchant's or mode's refund id answers 404 on every refund route", async () => {
    const mine = await refund({ paymentId: usd.id, amount: "1.00" });
    for (const key of [other.apiKey, testKey]) {
      expect((await api.get(`/refund/${mine.body.id}`, { key })).body.code).toBe("not_found");
      expect((await api.post(`/refund/${mine.body.id}`, { key, body: { status: "succeeded" } })).body.code).toBe("not_found");
      expect((await api.post(`/refund/${mine.body.id}/cancel`, { key })).body.code).toBe("not_found");
      const listed = await api.get("/refund", { key, query: { paymentId: usd.id } });
      expect(listed.body.data).toEqual([]);
    }
    expect((await api.get(`/refund/${mine.body.id}`, { key: shop.apiKey })).body.status).toBe("pending");
  });
});

describe("GET refund: filters and cursor paging", () => {
  it("pages newest first, filters by status, payment and invoice; a cursor of another list is refused", async () => {
    const invoice = (await api.post("/invoice", { key: shop.apiKey, body: { amount: "40.00", currency: "USD" } })).body;
    const payment = await confirmed({ amount: "40.00", invoiceId: invoice.id });
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await refund({ paymentId: payment.id, amount: "2.00", status: i % 2 ? "succeeded" : "pending" })).body.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await api.get("/refund", { key: shop.apiKey, query: { paymentId: payment.id, limit: 2, cursor } });
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((item: { id: string }) => item.id));
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...made].reverse());
    const succeeded = await api.get("/refund", { key: shop.apiKey, query: { paymentId: payment.id, status: "succeeded" } });
    expect(succeeded.body.data.map((item: { id: string }) => item.id).sort()).toEqual([made[1], made[3]].sort());
    const byInvoice = await api.get("/refund", { key: shop.apiKey, query: { invoiceId: invoice.id } });
    expect(byInvoice.body.data).toHaveLength(5);
    expect(byInvoice.body.data[0].invoiceId).toBe(invoice.id);
    expect((await api.get(`/invoice/${invoice.id}`, { key: shop.apiKey })).body).toMatchObject({ amountRefunded: "4.00" });
    const foreignCursor = await api.get("/payment", { key: shop.apiKey, query: { limit: 1 } });
    const refused = await api.get("/refund", { key: shop.apiKey, query: { cursor: foreignCursor.body.nextCursor } });
    expect(refused.body.code).toBe("invalid_cursor");
    const badStatus = await api.get("/refund", { key: shop.apiKey, query: { status: "done" } });
    expect(badStatus.body).toMatchObject({ code: "validation_failed", errors: [{ path: "query.status" }] });
  });
});

describe("statistics", () => {
  it("report succeeded refunds per currency and net volume", async () => {
    const fresh = await registerTestMerchant(api);
    const pay = async (amount: string, currency: string) =>
      (await api.post("/payment/confirm", { key: fresh.apiKey, body: { externalId: externalId(), amount, currency } })).body;
    const usd = await pay("100.00", "USD");
    await pay("0.50000000", "BTC");
    await api.post("/refund", { key: fresh.apiKey, body: { paymentId: usd.id, amount: "25.00", status: "succeeded" } });
    await api.post("/refund", { key: fresh.apiKey, body: { paymentId: usd.id, amount: "5.00" } });
    const stats = (await api.get(`/merchant/${fresh.merchant.id}/stats`, { key: fresh.apiKey })).body;
    expect(stats.refunds).toEqual([{ currency: "USD", amount: "25.00", count: 1 }]);
    expect(stats.netVolume).toEqual([
      { currency: "BTC", amount: "0.50000000" },
      { currency: "USD", amount: "75.00" },
    ]);
  });
});

describe("claim links", () => {
  it("a claim opens requires_action with a claimUrl; the test-mode claim and settle move it on with its events", async () => {
    const payment = await confirmed({ amount: "0.01000000", currency: "BTC" }, testKey);
    const created = await refund({ paymentId: payment.id, claim: { instructions: "Your BTC address" } }, testKey);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: "requires_action", claimInstructions: "Your BTC address" });
    expect(created.body.claimUrl).toMatch(/\/refund\/[A-Za-z0-9_-]{43}$/);
    expect(new Date(created.body.claimExpiresAt).getTime() - new Date(created.body.createdAt).getTime()).toBe(7 * 86_400_000);
    expect((await api.get(`/refund/${created.body.id}`, { key: testKey })).body.claimUrl).toBe(created.body.claimUrl);
    const [stored] = await runtime.database.db.select().from(refunds).where(eq(refunds.id, created.body.id));
    expect(JSON.stringify(stored)).not.toContain(created.body.claimUrl.split("/refund/")[1]);

    const live = await api.post(`/test/refund/${created.body.id}/claim`, { key: shop.apiKey, body: {} });
    expect(live.body.code).toBe("test_mode_only");
    const claimed = await api.post(`/test/refund/${created.body.id}/claim`, { key: testKey, body: { destination: "bc1qtest", network: "bitcoin" } });
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ status: "pending", destination: "bc1qtest", destinationNetwork: "bitcoin" });
    const twice = await api.post(`/test/refund/${created.body.id}/claim`, { key: testKey, body: {} });
    expect(twice.body.code).toBe("refund_already_claimed");
    const settled = await api.post(`/test/refund/${created.body.id}/settle`, { key: testKey, body: { status: "succeeded" } });
    expect(settled.body.status).toBe("succeeded");
    expect((await api.get(`/payment/${payment.id}`, { key: testKey })).body).toMatchObject({ refundStatus: "full", amountRefunded: "0.01000000" });
    const emitted = await runtime.database.db.select().from(events).where(eq(events.subjectId, created.body.id));
    expect(emitted.map((event) => event.type).sort()).toEqual(["refund.claimed", "refund.created", "refund.succeeded"]);
    expect(emitted.every((event) => event.livemode === false)).toBe(true);
  });

  it("an unclaimed claim expires to canceled with claim_expired and refund.canceled, once; its amount is refundable again", async () => {
    const payment = await confirmed({ amount: "8.00" }, testKey);
    const created = await refund({ paymentId: payment.id, claim: { expiresIn: 3600 } }, testKey);
    const sweep = () => expireRefundClaims({ ctx: createServiceContext(runtime, { type: "system" }, "req_sweep"), input: {} });
    await sweep();
    expect((await api.get(`/refund/${created.body.id}`, { key: testKey })).body.status).toBe("requires_action");
    runtime.advanceTime(3_601_000);
    const late = await api.post(`/test/refund/${created.body.id}/claim`, { key: testKey, body: {} });
    expect(late.body.code).toBe("refund_claim_expired");
    expect(await sweep()).toBeGreaterThanOrEqual(1);
    expect(await sweep()).toBe(0);
    expect((await api.get(`/refund/${created.body.id}`, { key: testKey })).body).toMatchObject({ status: "canceled", failureReason: "claim_expired" });
    const emitted = await runtime.database.db.select().from(events).where(eq(events.subjectId, created.body.id));
    expect(emitted.filter((event) => event.type === "refund.canceled")).toHaveLength(1);
    expect((await refund({ paymentId: payment.id }, testKey)).body.amount).toBe("8.00");
  });
});
