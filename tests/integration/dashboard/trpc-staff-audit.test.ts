import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "../../../src/server/services/users/session-user";
import { auditLog } from "../../../src/server/db/schema";
import type { Executor } from "../../../src/server/db/types";
import { recordStaffRead, STAFF_READ_AUDIT_WINDOW_MS } from "../../../src/server/services/audit/record-staff-read";
import { inTransaction } from "../../../src/server/services/context";
import { testClient, type TestClient } from "../../support/client";
import { dashboardAs, merchantSession } from "../../support/dashboard";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { createTestStaff, serviceContext } from "../../support/users";
import { testDatabaseKind } from "../../support/database";
import { rowsOf } from "../../support/dump";
import { seedFailedDelivery } from "../webhooks/seed";

let runtime: TestRuntime;
let api: TestClient;
let shopA: TestMerchant;
let shopB: TestMerchant;
const as = (session: SessionUser) => dashboardAs(runtime, session);
const sessionOf = merchantSession;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  shopA = await registerTestMerchant(api);
  shopB = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

/** The audit rows a staff user's reads wrote, as [action, merchant, target] triples. */
async function readsBy(staff: SessionUser) {
  const rows = await runtime.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.actorId, staff.id), eq(auditLog.actorType, "staff")))
    .orderBy(auditLog.createdAt, auditLog.id);
  return rows.map((row) => [row.action, row.merchantId, row.targetId]);
}

const freshStaff = async () => (await createTestStaff(runtime)).user;

async function untilSettledOrWaitingForALock(work: Promise<unknown>, tx: Executor) {
  let settled = false;
  void work.finally(() => (settled = true)).catch(() => {});
  for (let poll = 0; poll < 250 && !settled; poll++) {
    const [waiting] = rowsOf<{ n: number }>(
      await tx.execute(sql`
        select count(*)::int as n from pg_locks
        where not granted and database = (select oid from pg_database where datname = current_database())`),
    );
    if (waiting!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("staff reads of one merchant's data", () => {
  it("each write one audit row naming the staff user, the merchant and the view; the merchant's own reads none", async () => {
    const staff = await freshStaff();
    const delivery = await seedFailedDelivery(runtime.database.db, shopA.merchant.id);
    const merchantId = shopA.merchant.id;
    await as(staff).payments.staff.list({ merchantId });
    await as(staff).payments.staff.stats({ merchantId });
    await as(staff).staff.failedDeliveries({ merchantId });
    await as(staff).webhooks.staffDelivery({ merchantId, id: delivery });
    await as(staff).staff.merchant({ merchantId });
    expect(await readsBy(staff)).toEqual([
      ["staff.payments_viewed", merchantId, merchantId],
      ["staff.payment_stats_viewed", merchantId, merchantId],
      ["staff.failed_deliveries_viewed", merchantId, merchantId],
      ["staff.delivery_viewed", merchantId, delivery],
      ["staff.merchant_viewed", merchantId, merchantId],
    ]);
    const [row] = await runtime.database.db.select().from(auditLog).where(and(eq(auditLog.actorId, staff.id), eq(auditLog.targetId, delivery)));
    expect(row).toMatchObject({ actorType: "staff", targetType: "delivery" });

    // The merchant reading the same data is no staff action: nothing is written.
    const before = await runtime.database.db.select().from(auditLog).where(eq(auditLog.merchantId, merchantId));
    const merchant = as(sessionOf(shopA));
    await merchant.payments.list({});
    await merchant.payments.stats({});
    await merchant.webhooks.failed({});
    await merchant.webhooks.delivery({ id: delivery });
    await merchant.merchants.profile();
    expect(await runtime.database.db.select().from(auditLog).where(eq(auditLog.merchantId, merchantId))).toEqual(before);
  });

  it("write no second row for the same view within the window, and a new one after it", async () => {
    const staff = await freshStaff();
    const merchantId = shopA.merchant.id;
    const first = await as(staff).payments.staff.list({ merchantId, limit: 1 });
    await as(staff).payments.staff.list({ merchantId, limit: 1, cursor: first.nextCursor ?? undefined });
    await as(staff).payments.staff.list({ merchantId, status: "confirmed" });
    expect(await readsBy(staff)).toHaveLength(1);

    runtime.advanceTime(STAFF_READ_AUDIT_WINDOW_MS - 60_000);
    await as(staff).payments.staff.list({ merchantId });
    expect(await readsBy(staff)).toHaveLength(1);

    runtime.advanceTime(2 * 60_000);
    await as(staff).payments.staff.list({ merchantId });
    expect(await readsBy(staff)).toEqual([
      ["staff.payments_viewed", merchantId, merchantId],
      ["staff.payments_viewed", merchantId, merchantId],
    ]);
  });

  it("write a row per merchant, per kind of view, per delivery and per staff user", async () => {
    const staff = await freshStaff();
    const colleague = await freshStaff();
    const [one, two] = [await seedFailedDelivery(runtime.database.db, shopB.merchant.id), await seedFailedDelivery(runtime.database.db, shopB.merchant.id)];
    await as(staff).payments.staff.list({ merchantId: shopA.merchant.id });
    await as(staff).payments.staff.list({ merchantId: shopB.merchant.id });
    await as(staff).payments.staff.stats({ merchantId: shopB.merchant.id });
    await as(staff).webhooks.staffDelivery({ merchantId: shopB.merchant.id, id: one });
    await as(staff).webhooks.staffDelivery({ merchantId: shopB.merchant.id, id: two });
    await as(staff).webhooks.staffDelivery({ merchantId: shopB.merchant.id, id: one });
    await as(colleague).payments.staff.list({ merchantId: shopA.merchant.id });
    expect(await readsBy(staff)).toEqual([
      ["staff.payments_viewed", shopA.merchant.id, shopA.merchant.id],
      ["staff.payments_viewed", shopB.merchant.id, shopB.merchant.id],
      ["staff.payment_stats_viewed", shopB.merchant.id, shopB.merchant.id],
      ["staff.delivery_viewed", shopB.merchant.id, one],
      ["staff.delivery_viewed", shopB.merchant.id, two],
    ]);
    expect(await readsBy(colleague)).toEqual([["staff.payments_viewed", shopA.merchant.id, shopA.merchant.id]]);

    // A delivery that is not the named merchant's answers not_found and is no read.
    await expect(as(colleague).webhooks.staffDelivery({ merchantId: shopA.merchant.id, id: one })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await readsBy(colleague)).toHaveLength(1);
  });

  it("write one row when a second read comes while the first one's row is not yet committed", async () => {
    const staff = await freshStaff();
    const merchantId = shopA.merchant.id;
    const staffCtx = serviceContext(runtime, { type: "staff", userId: staff.id, merchantId });
    let second: Promise<unknown> | undefined;
    await runtime.database.db.transaction(async (tx) => {
      await recordStaffRead({ ctx: inTransaction(staffCtx, tx), input: { view: "paymentStats" } });
      second = as(staff).payments.staff.stats({ merchantId });
      // On the server the second read runs on another connection: let it get as far as it can (its own
      // insert, or waiting for this one) before committing. Embedded PostgreSQL runs it after the commit.
      if (testDatabaseKind() === "server") await untilSettledOrWaitingForALock(second, tx);
    });
    await second;
    expect(await readsBy(staff)).toEqual([["staff.payment_stats_viewed", merchantId, merchantId]]);
  });
});
