import { submitted } from "../../support/dashboard";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../../src/lib/ids";
import type { SessionUser } from "../../../src/server/services/users/session-user";
import { auditLog, payments, users } from "../../../src/server/db/schema";
import { createCallerFactory, createTrpcContext } from "../../../src/server/trpc/init";
import { appRouter } from "../../../src/server/trpc/router";
import { testClient, type TestClient } from "../../support/client";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { externalId } from "../../support/payments";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";

let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;
let other: TestMerchant;
let shopPayment: { id: string };
let otherPayment: { id: string };
const staffUser: SessionUser = { id: newId("user"), email: "support@example.com", role: "staff", merchantId: null, access: "staff:admin" };
let owner: SessionUser;
const caller = (session: SessionUser | null) => createCallerFactory(appRouter)(createTrpcContext(runtime, session));

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  [shop, other] = await Promise.all([registerTestMerchant(api, { name: "Corner 100% Shop" }), registerTestMerchant(api)]);
  // A dashboard user of the shop, stored, so the reconciliation can name them by email.
  owner = { id: newId("user"), email: `clerk-${shop.merchant.id}@example.com`, role: "merchant", merchantId: shop.merchant.id, access: "member:owner" };
  await runtime.database.db.insert(users).values({ id: owner.id, email: owner.email, passwordHash: "unused", role: "merchant", merchantId: shop.merchant.id });
  const confirm = async (merchant: TestMerchant) =>
    (await api.post("/payment/confirm", { key: merchant.apiKey, body: { externalId: externalId(), amount: "5.00", currency: "USD" } })).body;
  [shopPayment, otherPayment] = await Promise.all([confirm(shop), confirm(other)]);
});
afterAll(() => runtime.close());

const auditRows = (action: string, targetId?: string) =>
  runtime.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), targetId ? eq(auditLog.targetId, targetId) : undefined));

describe("merchants reconcile their own payments", () => {
  it("marks one reconciled with a note, audit-logged as the user, and reads back who and why", async () => {
    const marked = await caller(owner).payments.markReconciled(submitted({ paymentId: shopPayment.id, note: "Bank statement line 7" }));
    expect(marked.id).toBe(shopPayment.id);
    expect(marked.reconciledAt).not.toBeNull();
    // The merchant's view of a payment is the API's: no staff-only columns.
    expect(marked).not.toHaveProperty("merchantId");

    const [entry] = await auditRows("payment.reconciled", shopPayment.id);
    expect(entry).toMatchObject({ actorType: "user", actorId: owner.id, merchantId: shop.merchant.id, details: { note: "Bank statement line 7", previousNote: null } });

    const reconciliation = await caller(owner).payments.reconciliation({ id: shopPayment.id });
    expect(reconciliation).toEqual({ reconciledAt: marked.reconciledAt, note: "Bank statement line 7", reconciledBy: owner.email });
  });

  it("clears it again, the old note kept in the audit log", async () => {
    const cleared = await caller(owner).payments.clearReconciliation({ paymentId: shopPayment.id });
    expect(cleared.reconciledAt).toBeNull();
    expect(await caller(owner).payments.reconciliation({ id: shopPayment.id })).toEqual({ reconciledAt: null, note: null, reconciledBy: null });
    const [entry] = await auditRows("payment.reconciliation_cleared", shopPayment.id);
    expect(entry?.details).toMatchObject({ previousNote: "Bank statement line 7" });
  });

  it("answers another merchant's payment with NOT_FOUND and changes nothing", async () => {
    await expect(caller(owner).payments.markReconciled(submitted({ paymentId: otherPayment.id, note: "not mine" }))).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller(owner).payments.clearReconciliation({ paymentId: otherPayment.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller(owner).payments.reconciliation({ id: otherPayment.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const [row] = await runtime.database.db.select().from(payments).where(eq(payments.id, otherPayment.id));
    expect(row!.reconciledAt).toBeNull();
    expect(await auditRows("payment.reconciled", otherPayment.id)).toEqual([]);
  });

  it("refuses an empty or oversized note with BAD_REQUEST naming the field, and writes nothing", async () => {
    for (const note of ["", "   ", "x".repeat(2001)]) {
      const failure = await caller(owner).payments.markReconciled(submitted({ paymentId: shopPayment.id, note })).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: "BAD_REQUEST" });
      expect(JSON.stringify((failure as { cause?: unknown }).cause ?? failure)).toContain("note");
    }
    const [row] = await runtime.database.db.select().from(payments).where(eq(payments.id, shopPayment.id));
    expect(row!.reconciledAt).toBeNull();
  });

  it("is a merchant verb: staff (who use payments.staff) and a signed-out caller are refused", async () => {
    await expect(caller(staffUser).payments.markReconciled(submitted({ paymentId: shopPayment.id, note: "x" }))).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(caller(null).payments.markReconciled(submitted({ paymentId: shopPayment.id, note: "x" }))).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("staff open a payment: payment.viewed", () => {
  it("returns the payment with its merchant and writes one payment.viewed row per 15 minutes", async () => {
    const first = await caller(staffUser).payments.staff.get({ id: otherPayment.id });
    expect(first).toMatchObject({ id: otherPayment.id, merchantId: other.merchant.id });
    await caller(staffUser).payments.staff.get({ id: otherPayment.id });
    const rows = await auditRows("payment.viewed", otherPayment.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorType: "staff", actorId: staffUser.id, merchantId: other.merchant.id, targetType: "payment" });
    expect(await auditRows("payment.searched")).toEqual([]);
  });

  it("answers an unknown id with NOT_FOUND and writes nothing; a merchant is FORBIDDEN", async () => {
    const unknown = newId("payment");
    await expect(caller(staffUser).payments.staff.get({ id: unknown })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await auditRows("payment.viewed", unknown)).toEqual([]);
    await expect(caller(owner).payments.staff.get({ id: shopPayment.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("staff names and merchant directory", () => {
  it("names merchants and users by id, leaving unknown ids out", async () => {
    const names = await caller(staffUser).staff.names({ merchantIds: [shop.merchant.id, "mer_unknown"], userIds: [owner.id, "usr_unknown"] });
    expect(names.merchants).toEqual({ [shop.merchant.id]: { name: shop.merchant.name, email: shop.merchant.email } });
    expect(names.users).toEqual({ [owner.id]: { email: owner.email, name: null } });
  });

  it("refuses merchants and more than 200 ids", async () => {
    await expect(caller(owner).staff.names({ merchantIds: [other.merchant.id] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const many = Array.from({ length: 201 }, () => newId("merchant"));
    await expect(caller(staffUser).staff.names({ merchantIds: many })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("lists merchants newest first, narrowed by part of a name, email or id (LIKE wildcards literal), audit-logged", async () => {
    const all = await caller(staffUser).staff.merchants({});
    expect(all.data.map((merchant) => merchant.id)).toEqual(expect.arrayContaining([shop.merchant.id, other.merchant.id]));
    expect(all.data[0]).not.toHaveProperty("passwordHash");

    const byName = await caller(staffUser).staff.merchants({ query: "100% sho" });
    expect(byName.data.map((merchant) => merchant.id)).toEqual([shop.merchant.id]);
    // `%` is a literal percent sign, not "anything": "0%" matches only names containing it.
    expect((await caller(staffUser).staff.merchants({ query: "r%s" })).data).toEqual([]);
    const byEmail = await caller(staffUser).staff.merchants({ query: other.merchant.email.toUpperCase() });
    expect(byEmail.data.map((merchant) => merchant.id)).toEqual([other.merchant.id]);

    const logged = await auditRows("staff.merchants_listed");
    expect(logged.map((row) => (row.details as { query: string | null }).query)).toEqual(expect.arrayContaining([null, "100% sho"]));
    await expect(caller(owner).staff.merchants({})).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
