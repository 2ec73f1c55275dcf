import { submitted } from "../support/dashboard";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/lib/ids";
import type { SessionUser } from "../../src/server/services/users/session-user";
import { auditLog, payments } from "../../src/server/db/schema";
import { clearPaymentReconciliation } from "../../src/server/services/payments/clear-reconciliation";
import { markPaymentReconciled } from "../../src/server/services/payments/reconcile";
import { createCallerFactory, createTrpcContext } from "../../src/server/trpc/init";
import { appRouter } from "../../src/server/trpc/router";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { serviceContext } from "../support/context";
import { externalId } from "../support/payments";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;
let other: TestMerchant;
let shopPayment: any;
let otherPayment: any;
const staffUser: SessionUser = { id: newId("user"), email: "support@example.com", role: "staff", merchantId: null, access: "staff:admin" };
const caller = (session: SessionUser | null) => createCallerFactory(appRouter)(createTrpcContext(runtime, session));
const merchantUser = (merchant: TestMerchant): SessionUser => ({ id: newId("user"), email: merchant.merchant.email, role: "merchant", merchantId: merchant.merchant.id, access: "member:owner" });

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  [shop, other] = await Promise.all([registerTestMerchant(api), registerTestMerchant(api)]);
  const confirm = (merchant: TestMerchant, body: Record<string, unknown>) => api.post("/payment/confirm", { key: merchant.apiKey, body });
  shopPayment = (await confirm(shop, { externalId: externalId("shared"), amount: "5.00", currency: "USD", reference: "INV-1" })).body;
  otherPayment = (await confirm(other, { externalId: externalId(), amount: "6.00", currency: "USD", reference: "INV-1" })).body;
});
afterAll(() => runtime.close());

async function auditFor(paymentId: string) {
  return runtime.database.db.select().from(auditLog).where(and(eq(auditLog.targetType, "payment"), eq(auditLog.targetId, paymentId)));
}

describe("staff reconciliation", () => {
  it("marks a payment reconciled with a note, audit-logged, and the merchant sees reconciledAt", async () => {
    const marked = await caller(staffUser).payments.staff.markReconciled(submitted({ paymentId: shopPayment.id, note: "Matched bank line 42" }));
    expect(marked).toMatchObject({ id: shopPayment.id, merchantId: shop.merchant.id, reconciledBy: staffUser.id, reconciliationNote: "Matched bank line 42" });
    expect(marked.reconciledAt).not.toBeNull();

    const seen = await api.get(`/payment/${shopPayment.id}`, { key: shop.apiKey });
    expect(seen.body.reconciledAt).toBe(marked.reconciledAt);
    expect(seen.body).not.toHaveProperty("reconciliationNote");

    const [entry] = await auditFor(shopPayment.id);
    expect(entry).toMatchObject({
      action: "payment.reconciled",
      actorType: "staff",
      actorId: staffUser.id,
      merchantId: shop.merchant.id,
      details: { note: "Matched bank line 42", previousNote: null },
    });
  });

  it("clears it again, keeping the old note in the audit log", async () => {
    const cleared = await caller(staffUser).payments.staff.clearReconciliation({ paymentId: shopPayment.id });
    expect(cleared).toMatchObject({ reconciledAt: null, reconciledBy: null, reconciliationNote: null });
    const entries = await auditFor(shopPayment.id);
    expect(entries.map((entry) => entry.action).sort()).toEqual(["payment.reconciled", "payment.reconciliation_cleared"]);
    expect(entries.find((entry) => entry.action === "payment.reconciliation_cleared")!.details).toMatchObject({ previousNote: "Matched bank line 42" });
  });

  it("is for staff only: merchants and anonymous callers are refused, and nothing changes", async () => {
    await expect(caller(merchantUser(shop)).payments.staff.markReconciled(submitted({ paymentId: shopPayment.id, note: "mine" }))).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(caller(null).payments.staff.search({ query: "INV-1" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const apiKeyCtx = serviceContext(runtime, { type: "api_key", merchantId: shop.merchant.id, keyId: "key_x", livemode: true });
    await expect(markPaymentReconciled({ ctx: apiKeyCtx, input: { paymentId: shopPayment.id, note: "x" } })).rejects.toMatchObject({ code: "forbidden" });
    const [row] = await runtime.database.db.select().from(payments).where(eq(payments.id, shopPayment.id));
    expect(row!.reconciledAt).toBeNull();
  });

  it("answers an unknown payment, or one outside the merchant staff are viewing, with 404", async () => {
    const staff = serviceContext(runtime, { type: "staff", userId: staffUser.id });
    await expect(markPaymentReconciled({ ctx: staff, input: { paymentId: newId("payment"), note: "x" } })).rejects.toMatchObject({ code: "not_found" });
    const viewingOther = serviceContext(runtime, { type: "staff", userId: staffUser.id, merchantId: other.merchant.id });
    await expect(clearPaymentReconciliation({ ctx: viewingOther, input: { paymentId: shopPayment.id } })).rejects.toMatchObject({ code: "not_found" });
  });

  it("refuses an empty or oversized note", async () => {
    for (const note of ["", "x".repeat(2001)]) {
      await expect(caller(staffUser).payments.staff.markReconciled(submitted({ paymentId: shopPayment.id, note }))).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
  });
});

describe("staff search", () => {
  it("finds payments across merchants by reference, external id or payment id, and audit-logs the search", async () => {
    const staff = caller(staffUser).payments.staff;
    const byReference = await staff.search({ query: "INV-1" });
    expect(byReference.data.map((payment) => payment.id).sort()).toEqual([shopPayment.id, otherPayment.id].sort());
    expect((await staff.search({ query: shopPayment.externalId })).data.map((payment) => payment.id)).toEqual([shopPayment.id]);
    const byId = await staff.search({ query: otherPayment.id });
    expect(byId.data).toEqual([expect.objectContaining({ id: otherPayment.id, merchantId: other.merchant.id })]);
    expect((await staff.search({ query: "nothing-like-this" })).data).toEqual([]);
    const searches = await runtime.database.db.select().from(auditLog).where(eq(auditLog.action, "payment.searched"));
    expect(searches.length).toBeGreaterThanOrEqual(4);
  });

  it("lets staff open one merchant's payments read-only", async () => {
    const page = await caller(staffUser).payments.staff.list({ merchantId: other.merchant.id });
    expect(page.data.map((payment) => payment.id)).toEqual([otherPayment.id]);
  });
});

describe("payments over tRPC for merchants", () => {
  it("lists and gets only the signed-in merchant's payments", async () => {
    const mine = caller(merchantUser(shop)).payments;
    expect((await mine.list({})).data.map((payment) => payment.id)).toEqual([shopPayment.id]);
    expect((await mine.get({ id: shopPayment.id })).id).toBe(shopPayment.id);
    await expect(mine.get({ id: otherPayment.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller(null).payments.list({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
