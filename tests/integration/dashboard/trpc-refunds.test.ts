import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, refunds } from "../../../src/server/db/schema";
import { dashboardAs, merchantSession, STAFF_SESSION, submitted } from "../../support/dashboard";
import { testClient, type TestClient } from "../../support/client";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { externalId } from "../../support/payments";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";

let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  shop = await registerTestMerchant(api);
  other = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

const merchant = (who = shop) => dashboardAs(runtime, merchantSession(who));
const staff = () => dashboardAs(runtime, STAFF_SESSION);

async function payment(amount = "40.00") {
  return (await api.post("/payment/confirm", { key: shop.apiKey, body: { externalId: externalId(), amount, currency: "EUR" } })).body as { id: string };
}

describe("refunds in the dashboard", () => {
  it("a merchant refunds half a payment once per submission; the payment shows partial; lists and filters", async () => {
    const paid = await payment();
    const submission = submitted({ paymentId: paid.id, amount: "20.00", status: "succeeded" as const, reason: "requested_by_customer" as const });
    const first = await merchant().refunds.create(submission);
    const again = await merchant().refunds.create(submission);
    expect(again.id).toBe(first.id);
    expect((await runtime.database.db.select().from(refunds).where(eq(refunds.paymentId, paid.id))).length).toBe(1);
    expect(await merchant().payments.get({ id: paid.id })).toMatchObject({ amountRefunded: "20.00", refundStatus: "partial" });
    expect((await merchant().refunds.ofPayment({ paymentId: paid.id })).map((refund) => refund.id)).toEqual([first.id]);
    expect((await merchant().refunds.list({ status: "succeeded", paymentId: paid.id })).data.map((refund) => refund.id)).toEqual([first.id]);
    await expect(merchant(other).refunds.get({ id: first.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const over = merchant().refunds.create(submitted({ paymentId: paid.id, amount: "20.01" }));
    await expect(over).rejects.toMatchObject({ code: "CONFLICT", cause: { code: "refund_exceeds_payment", options: { members: { refundable: "20.00" } } } });
  });

  it("cancel and settle from the payment page", async () => {
    const paid = await payment("10.00");
    const pending = await merchant().refunds.create(submitted({ paymentId: paid.id, amount: "4.00" }));
    expect((await merchant().refunds.update(submitted({ id: pending.id, status: "succeeded" as const }))).status).toBe("succeeded");
    const claim = await merchant().refunds.create(submitted({ paymentId: paid.id, amount: "1.00", claim: {} }));
    expect(claim.claimUrl).toMatch(/\/refund\//);
    expect((await merchant().refunds.cancel(submitted({ id: claim.id }))).status).toBe("canceled");
  });

  it("support staff refund for a merchant only with a note, audit-logged; merchants cannot use the staff verb", async () => {
    const paid = await payment("15.00");
    await expect(staff().refunds.staff.create(submitted({ merchantId: shop.merchant.id, paymentId: paid.id, note: "  " }))).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    const made = await staff().refunds.staff.create(submitted({ merchantId: shop.merchant.id, paymentId: paid.id, amount: "5.00", status: "succeeded" as const, note: "Ticket 4711: double charge" }));
    expect(made).toMatchObject({ amount: "5.00", status: "succeeded", note: "Ticket 4711: double charge" });
    const rows = await runtime.database.db.select().from(auditLog).where(and(eq(auditLog.targetType, "refund"), eq(auditLog.targetId, made.id)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorType: "staff", actorId: STAFF_SESSION.id, merchantId: shop.merchant.id, action: "refund.created_by_staff" });
    expect(rows[0]!.details).toMatchObject({ note: "Ticket 4711: double charge" });
    // Staff naming another merchant cannot reach this payment.
    await expect(staff().refunds.staff.create(submitted({ merchantId: other.merchant.id, paymentId: paid.id, note: "wrong shop" }))).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(merchant().refunds.staff.create(submitted({ merchantId: shop.merchant.id, paymentId: paid.id, note: "x" }))).rejects.toMatchObject({ code: "FORBIDDEN" });
    // A merchant's verb refuses staff.
    await expect(staff().refunds.create(submitted({ paymentId: paid.id }))).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
