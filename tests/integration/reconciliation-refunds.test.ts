import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payments } from "../../src/server/db/schema";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { externalId } from "../support/payments";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

/**
 * Settlement files list refunds too (docs/refunds.md, "Reconciliation"): a line with a negative amount or a `type`
 * of `refund` is matched to the recorded refund with its `externalId`, and counted apart from payment lines.
 */
let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  shop = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

const upload = (file: string) => api.post("/reconciliation", { key: shop.apiKey, rawBody: file, headers: { "content-type": "text/csv" } });

async function paidAndRefunded(amount: string, refundAmount: string, refundStatus = "succeeded") {
  const paymentExt = externalId("ch");
  const payment = (await api.post("/payment/confirm", { key: shop.apiKey, body: { externalId: paymentExt, amount, currency: "EUR" } })).body;
  const refundExt = externalId("re");
  const refund = (await api.post("/refund", { key: shop.apiKey, body: { paymentId: payment.id, amount: refundAmount, externalId: refundExt, status: refundStatus } })).body;
  return { payment, paymentExt, refund, refundExt };
}

describe("refund lines in a settlement file", () => {
  it("negative amounts and type=refund match recorded refunds by externalId; counted apart from payments", async () => {
    const a = await paidAndRefunded("30.00", "10.00");
    const b = await paidAndRefunded("20.00", "5.00");
    const c = await paidAndRefunded("12.00", "2.00");
    const failed = await paidAndRefunded("9.00", "9.00", "pending");
    await api.post(`/refund/${failed.refund.id}`, { key: shop.apiKey, body: { status: "failed" } });
    const file = [
      "externalId,amount,currency,type",
      `${a.paymentExt},30.00,EUR,payment`,
      `${a.refundExt},-10.00,EUR,`,
      `${b.refundExt},5.00,EUR,refund`,
      `${c.refundExt},-2.50,EUR,`,
      `re_unknown_1,-1.00,EUR,`,
      `${failed.refundExt},-9.00,EUR,`,
      `${a.refundExt},-10.00,EUR,`,
      `,-3.00,EUR,refund`,
    ].join("\n");
    const report = await upload(file);
    expect(report.status, JSON.stringify(report.body)).toBe(201);
    expect(report.body.summary).toEqual({
      matched: 1,
      mismatched: 0,
      missingInLedger: 0,
      missingInFile: 0,
      malformed: 1,
      refunds: { matched: 2, mismatched: 3, missingInLedger: 1 },
    });
    const byLine = new Map(report.body.lines.map((line: { lineNumber: number }) => [line.lineNumber, line]));
    expect(byLine.get(2)).toMatchObject({ kind: "payment", status: "matched", paymentId: a.payment.id, refundId: null });
    expect(byLine.get(3)).toMatchObject({ kind: "refund", status: "matched", refundId: a.refund.id, paymentId: a.payment.id, fileAmount: "10.00" });
    expect(byLine.get(4)).toMatchObject({ kind: "refund", status: "matched", refundId: b.refund.id });
    expect(byLine.get(5)).toMatchObject({ kind: "refund", status: "mismatched", reason: "amount", ledgerAmount: "2.00" });
    expect(byLine.get(6)).toMatchObject({ kind: "refund", status: "missingInLedger" });
    expect(byLine.get(7)).toMatchObject({ kind: "refund", status: "mismatched", reason: "status" });
    expect(byLine.get(8)).toMatchObject({ kind: "refund", status: "mismatched", reason: "duplicate" });
    expect(byLine.get(9)).toMatchObject({ status: "malformed", reason: expect.stringContaining("externalId") });
  });

  it("resolving a refund line does not mark its payment reconciled, and refund lines never hide a payment from missingInFile", async () => {
    const d = await paidAndRefunded("40.00", "4.00");
    const since = new Date(Date.now() - 60_000).toISOString();
    const report = await api.post("/reconciliation", {
      key: shop.apiKey,
      rawBody: `externalId,amount,currency\n${d.refundExt},-4.00,EUR\n`,
      headers: { "content-type": "text/csv" },
      query: { from: since },
    });
    expect(report.status, JSON.stringify(report.body)).toBe(201);
    const missing = report.body.lines.filter((line: { status: string }) => line.status === "missingInFile").map((line: { paymentId: string }) => line.paymentId);
    expect(missing).toContain(d.payment.id);
    expect(report.body.summary.refunds.matched).toBe(1);
    const [row] = await runtime.database.db.select().from(payments).where(eq(payments.id, d.payment.id));
    expect(row!.reconciledAt).toBeNull();
  });
});
