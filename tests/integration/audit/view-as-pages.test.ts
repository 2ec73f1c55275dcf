import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { homeOf } from "../../../src/server/auth/dashboard-routes";
import { openPage, viewedMerchant } from "../../../src/server/auth/page-admission";
import { PERMISSIONS } from "../../../src/server/auth/permissions";
import { reconciliationActor } from "../../../src/server/auth/reconciliation-actor";
import { admitPage, merchantSideOf, permissionsHere, viewAsMayOpen, viewAsNavigation } from "../../../src/server/auth/view-as";
import { auditLog } from "../../../src/server/db/schema";
import { createSession } from "../../../src/server/services/sessions/create";
import { resolveSession } from "../../../src/server/services/sessions/resolve";
import type { SessionUser } from "../../../src/server/services/users/session-user";
import { testClient } from "../../support/client";
import { dashboardAs, merchantSession } from "../../support/dashboard";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { createTestStaff, serviceContext } from "../../support/users";

// "View as merchant" in the dashboard's pages (docs/team-and-security.md, "Viewing as a merchant"): which pages a
// staff session opens while its grant lasts (auth/view-as.ts), each one recorded in the merchant's audit log
// (auth/page-admission.ts, what every page's guard calls), and what the merchant side of the dashboard then is.

let runtime: TestRuntime;
let shop: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime();
  shop = await registerTestMerchant(testClient(runtime));
});
afterAll(() => runtime.close());

/** A staff member signed in with a real session row, read back as the next request's session lookup reads it. */
async function signedInStaff(): Promise<SessionUser> {
  const { user } = await createTestStaff(runtime);
  const session = await createSession({ ctx: serviceContext(runtime, { type: "staff", userId: user.id }), input: { ip: "192.0.2.9", userAgent: "test" } });
  return current({ sessionId: session.id } as SessionUser);
}

async function current(staff: SessionUser): Promise<SessionUser> {
  const resolved = await resolveSession({ ctx: serviceContext(runtime, { type: "system" }), input: { id: staff.sessionId! } });
  return { ...resolved!.user, sessionId: staff.sessionId };
}

async function viewing(): Promise<SessionUser> {
  const staff = await signedInStaff();
  await dashboardAs(runtime, staff).staff.startViewAs({ merchantId: shop.merchant.id, reason: "ticket 5150: a payment is missing" });
  return current(staff);
}

const pagesViewedBy = async (staff: SessionUser) =>
  (
    await runtime.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.merchantId, shop.merchant.id), eq(auditLog.actorId, staff.id), eq(auditLog.action, "staff.view_as_page_viewed")))
      .orderBy(asc(auditLog.seq))
  ).map((entry) => (entry.details as { path: string }).path);

describe("staff open a merchant's pages only while a view-as grant lasts", () => {
  it("without a grant, staff are sent to their console, and have no merchant side", async () => {
    const staff = await signedInStaff();
    expect(admitPage(staff, "/dashboard/payments", runtime.now())).toEqual({ outcome: "redirect", to: homeOf(staff.access) });
    expect(homeOf(staff.access)).toBe("/dashboard/staff");
    expect(admitPage(staff, "/dashboard/staff/merchants/mer_1", runtime.now())).toMatchObject({ outcome: "allowed", viewingAs: null });
    expect(merchantSideOf(staff, runtime.now(), true)).toBeNull();
    expect(reconciliationActor(staff, null, true, "read", runtime.now())).toBeNull();
    expect(await viewedMerchant(runtime, staff)).toBeNull();
    expect(permissionsHere(staff, runtime.now(), true)).toContain("staff.view_as");
  });

  it("with one, the merchant's pages the viewer role may see open, as that merchant, and each is in its audit log", async () => {
    const staff = await viewing();
    const opened = await openPage(runtime, staff, "/dashboard/payments", { client: { ip: "192.0.2.9", userAgent: "test" } });
    expect(opened).toMatchObject({ outcome: "allowed", user: { id: staff.id, role: "staff", merchantId: shop.merchant.id }, viewingAs: { merchantId: shop.merchant.id } });
    expect(await openPage(runtime, staff, "/dashboard/payments/pay_0123")).toMatchObject({ outcome: "allowed" });
    // A router prefetch is no page view.
    expect(await openPage(runtime, staff, "/dashboard/refunds", { prefetch: true })).toMatchObject({ outcome: "allowed" });
    expect(await pagesViewedBy(staff)).toEqual(["/dashboard/payments", "/dashboard/payments/pay_0123"]);

    // The banner's merchant.
    expect(await viewedMerchant(runtime, staff)).toEqual({ merchantId: shop.merchant.id, name: shop.merchant.name, until: staff.viewAs!.until });
    // The proxy lets staff through to the pages a grant may open; the page's guard decides.
    expect(viewAsMayOpen("/dashboard")).toBe(true);
    expect(viewAsMayOpen("/dashboard/invoices/inv_1")).toBe(true);
    expect(viewAsMayOpen("/dashboard/keys")).toBe(false);
    // The header's links while viewing: the viewer role's pages but its own account, each admitted.
    expect(viewAsNavigation().map((item) => item.label)).toEqual(["Overview", "Invoices", "Payments", "Refunds", "Reconciliation", "Webhooks", "Team", "Settings"]);
    for (const item of viewAsNavigation()) expect(admitPage(staff, item.href, runtime.now()), item.href).toMatchObject({ outcome: "allowed" });
  });

  it("pages the viewer role may not see, the staff member's own account page and the staff console send it to the merchant's overview, unrecorded", async () => {
    const staff = await viewing();
    for (const path of ["/dashboard/keys", "/dashboard/audit", "/dashboard/account", "/dashboard/staff", "/dashboard/staff/merchants/" + shop.merchant.id]) {
      expect(await openPage(runtime, staff, path), path).toEqual({ outcome: "redirect", to: "/dashboard" });
    }
    expect(await pagesViewedBy(staff)).toEqual([]);
  });

  it("reads as the viewer role, live, never writes: procedures, exports and reconciliation decide it in one place", async () => {
    const staff = await viewing();
    const side = merchantSideOf(staff, runtime.now(), false)!;
    expect(side.actor).toEqual({ type: "staff", userId: staff.id, merchantId: shop.merchant.id, sessionId: staff.sessionId });
    expect(side.may("payments.read")).toBe(true);
    for (const permission of ["payments.write", "refunds.write", "api_keys.read", "audit_log.read", "own_account.write", "staff.view_as"] as const) {
      expect(side.may(permission), permission).toBe(false);
    }
    const held = permissionsHere(staff, runtime.now(), true);
    expect(held).toContain("payments.read");
    expect(held.filter((permission) => permission.endsWith(".write") || permission.startsWith("staff.") || permission === "team.ownership")).toEqual([]);
    expect(held.every((permission) => PERMISSIONS.includes(permission))).toBe(true);
    expect(reconciliationActor(staff, null, true, "read", runtime.now())).toEqual(side.actor);
    expect(reconciliationActor(staff, shop.merchant.id, true, "write", runtime.now())).toBe("forbidden");
    expect((await dashboardAs(runtime, staff).merchants.profile()).id).toBe(shop.merchant.id);
    // A merchant's own member is unchanged: their role, their pages.
    const owner = merchantSession(shop);
    expect(admitPage(owner, "/dashboard/keys", runtime.now())).toEqual({ outcome: "allowed", user: owner, viewingAs: null });
    expect(merchantSideOf(owner, runtime.now(), false)!.actor).toMatchObject({ type: "user", merchantId: shop.merchant.id, livemode: false });
  });

  it("after Stop elsewhere (a session still cached with the grant), the next page is refused, back to the console, unrecorded", async () => {
    const staff = await viewing();
    await dashboardAs(runtime, staff).staff.stopViewAs();
    expect(await openPage(runtime, staff, "/dashboard/invoices")).toEqual({ outcome: "redirect", to: "/dashboard/staff" });
    expect(await pagesViewedBy(staff)).toEqual([]);
    expect(admitPage(await current(staff), "/dashboard/invoices", runtime.now())).toEqual({ outcome: "redirect", to: "/dashboard/staff" });
  });

  it("when the hour is up, the next page lands in the staff console", async () => {
    const staff = await viewing();
    expect(admitPage(staff, "/dashboard", runtime.now()).outcome).toBe("allowed");
    runtime.advanceTime(60 * 60 * 1000 + 1);
    expect(await openPage(runtime, staff, "/dashboard")).toEqual({ outcome: "redirect", to: "/dashboard/staff" });
    expect(merchantSideOf(staff, runtime.now(), true)).toBeNull();
    expect(await viewedMerchant(runtime, staff)).toBeNull();
  });
});
