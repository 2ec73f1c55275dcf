import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDecimals, compareDecimals } from "../../src/lib/money";
import { events, payments, refunds } from "../../src/server/db/schema";
import { createServiceContext } from "../../src/server/services/create-context";
import { expireRefundClaims } from "../../src/server/services/refunds/expire-claims";
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
/*
 * Every other refund with an amount also names the currency: those take the payment's amount in one statement, the
 * others after locking and reading the payment (services/refunds/create.ts). Both ways race each other here.
 */
let sent = 0;
const refund = (body: Record<string, unknown>) =>
  api.post("/refund", { key: shop.apiKey, body: body.amount !== undefined && sent++ % 2 === 0 ? { currency: "USD", ...body } : body });

async function refundsOf(paymentId: string) {
  return runtime.database.db.select().from(refunds).where(eq(refunds.paymentId, paymentId));
}

/**
 * The payment's held amount, which the next refund is checked against, is the sum of its refunds still holding part
 * of it (services/refunds/held.ts): never drifted by a race, never above the payment. Returns that sum.
 */
async function expectHeldIsTheHoldingSum(paymentId: string): Promise<string> {
  const holding = (await refundsOf(paymentId)).filter((row) => row.status !== "failed" && row.status !== "canceled");
  const sum = addDecimals("0", ...holding.map((row) => row.amount));
  const [payment] = await runtime.database.db.select().from(payments).where(eq(payments.id, paymentId));
  expect(compareDecimals(payment!.amountHeld, sum), `held ${payment!.amountHeld}, holding refunds ${sum}`).toBe(0);
  expect(compareDecimals(sum, payment!.amount)).toBeLessThanOrEqual(0);
  return sum;
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
    expect(await expectHeldIsTheHoldingSum(payment.id)).toBe("99.00");
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
    await expectHeldIsTheHoldingSum(payment.id);
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
    await expectHeldIsTheHoldingSum(payment.id);
  });

  it("20 refunds at once with one externalId: one is recorded, every other answer is that refund, held once", async () => {
    const payment = (await confirm({ externalId: externalId("same"), amount: "30.00" })).body;
    const ext = externalId("proc");
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund({ paymentId: payment.id, amount: "7.00", externalId: ext })));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(19);
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(await refundsOf(payment.id)).toHaveLength(1);
    expect(await expectHeldIsTheHoldingSum(payment.id)).toBe("7.00");
  });

  it("one externalId sent at once for two payments: one records it, the other is 409 refund_conflict and holds nothing", async () => {
    const first = (await confirm({ externalId: externalId("one"), amount: "10.00" })).body;
    const second = (await confirm({ externalId: externalId("two"), amount: "10.00" })).body;
    const ext = externalId("proc");
    const answers = await Promise.all([first, second, first, second].map((payment) => refund({ paymentId: payment.id, amount: "4.00", externalId: ext })));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    const winner = answers.find((answer) => answer.status === 201)!.body;
    for (const answer of answers.filter((answer) => answer.status !== 201)) {
      if (answer.status === 200) expect(answer.body.id).toBe(winner.id);
      else expect(answer.body).toMatchObject({ status: 409, code: "refund_conflict" });
    }
    expect(await expectHeldIsTheHoldingSum(winner.paymentId)).toBe("4.00");
    expect(await expectHeldIsTheHoldingSum(winner.paymentId === first.id ? second.id : first.id)).toBe("0");
  });

  it("an expired claim canceled by the merchant and by three sweeps at once gives its amount back once", async () => {
    const payment = (await confirm({ externalId: externalId("claim"), amount: "9.00" })).body;
    const claim = (await refund({ paymentId: payment.id, amount: "6.00", claim: { expiresIn: 3600 } })).body;
    expect(await expectHeldIsTheHoldingSum(payment.id)).toBe("6.00");
    runtime.advanceTime(3_601_000);
    const sweep = () => expireRefundClaims({ ctx: createServiceContext(runtime, { type: "system" }, "req_sweep"), input: {} });
    const [canceled, ...swept] = await Promise.all([api.post(`/refund/${claim.id}/cancel`, { key: shop.apiKey }), sweep(), sweep(), sweep()]);
    expect(canceled!.status).toBe(200);
    expect(swept.reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(1);
    expect(await expectHeldIsTheHoldingSum(payment.id)).toBe("0");
    // The whole payment is refundable again, and no more.
    expect((await refund({ paymentId: payment.id })).body.amount).toBe("9.00");
    expect((await refund({ paymentId: payment.id, amount: "0.01" })).body).toMatchObject({ code: "refund_exceeds_payment", refundable: "0.00" });
  });
});

describe("refunded amounts under concurrency", () => {
  it("an invoice's payment refunded and moved at once: payment and invoice amountRefunded are the exact succeeded sum", async () => {
    const invoice = (await api.post("/invoice", { key: shop.apiKey, body: { amount: "60.00", currency: "USD" } })).body;
    const payment = (await confirm({ externalId: externalId("inv"), amount: "60.00", invoiceId: invoice.id })).body;
    const pending = await Promise.all(Array.from({ length: 6 }, () => refund({ paymentId: payment.id, amount: "2.50" })));
    // Six pending refunds succeed or fail while 24 more are recorded, half of them as succeeded at once.
    await Promise.all([
      ...pending.map((answer, i) => api.post(`/refund/${answer.body.id}`, { key: shop.apiKey, body: { status: i % 3 ? "succeeded" : "failed" } })),
      ...Array.from({ length: 24 }, (_, i) => refund({ paymentId: payment.id, amount: "1.25", status: i % 2 ? "succeeded" : "pending" })),
    ]);
    const rows = await refundsOf(payment.id);
    const succeeded = addDecimals("0", ...rows.filter((row) => row.status === "succeeded").map((row) => row.amount));
    expect(compareDecimals(succeeded, "0")).toBeGreaterThan(0);
    const shown = (await api.get(`/payment/${payment.id}`, { key: shop.apiKey })).body;
    expect(compareDecimals(shown.amountRefunded, succeeded)).toBe(0);
    expect(shown.refundStatus).toBe("partial");
    const onInvoice = (await api.get(`/invoice/${invoice.id}`, { key: shop.apiKey })).body;
    expect(compareDecimals(onInvoice.amountRefunded, succeeded)).toBe(0);
    await expectHeldIsTheHoldingSum(payment.id);
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
      await expectHeldIsTheHoldingSum(payment.id);
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
    await expectHeldIsTheHoldingSum(payment.id);
  });
});
