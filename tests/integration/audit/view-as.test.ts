import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "../../../src/server/db/schema";
import { createSession } from "../../../src/server/services/sessions/create";
import { resolveSession } from "../../../src/server/services/sessions/resolve";
import type { SessionUser } from "../../../src/server/services/users/session-user";
import { appRouter } from "../../../src/server/trpc/router";
import { VIEW_AS_MUTATIONS } from "../../../src/server/trpc/view-as";
import { testClient, type TestClient } from "../../support/client";
import { dashboardAs } from "../../support/dashboard";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { createTestStaff, serviceContext } from "../../support/users";

let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  shop = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

/** A staff member signed in with a real session row, as the dashboard sees them. */
async function signedInStaff(): Promise<SessionUser> {
  const { user } = await createTestStaff(runtime);
  const session = await createSession({ ctx: serviceContext(runtime, { type: "staff", userId: user.id }), input: { ip: "192.0.2.8", userAgent: "test" } });
  return { id: user.id, email: user.email, role: "staff", merchantId: null, access: "staff:admin", sessionId: session.id };
}

/** The session as the next request sees it: the row read again (grant included). */
async function current(staff: SessionUser): Promise<SessionUser> {
  const resolved = await resolveSession({ ctx: serviceContext(runtime, { type: "system" }), input: { id: staff.sessionId! } });
  return { ...resolved!.user, sessionId: staff.sessionId };
}

const merchantAudit = () =>
  runtime.database.db.select().from(auditLog).where(and(eq(auditLog.merchantId, shop.merchant.id), eq(auditLog.actorType, "staff"))).orderBy(asc(auditLog.seq));

/** Every mutation procedure of the dashboard's API, by path. */
function mutationPaths(): string[] {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;
  return Object.entries(procedures)
    .filter(([, procedure]) => procedure._def.type === "mutation")
    .map(([path]) => path);
}

function call(caller: unknown, path: string, input: unknown): Promise<unknown> {
  const procedure = path.split(".").reduce((node: any, key) => node[key], caller);
  return procedure(input);
}

describe("staff view a merchant's dashboard read-only", () => {
  it("with a reason, for at most an hour: reads answer the merchant's data, each page view is in its audit log", async () => {
    const staff = await signedInStaff();
    const grant = await dashboardAs(runtime, staff).staff.startViewAs({ merchantId: shop.merchant.id, reason: "ticket 4711: payouts missing" });
    const left = Date.parse(grant.until) - runtime.now().getTime();
    expect(left).toBeLessThanOrEqual(60 * 60 * 1000);
    expect(left).toBeGreaterThan(59 * 60 * 1000);
    const viewing = await current(staff);
    expect(viewing.viewAs).toEqual({ merchantId: shop.merchant.id, until: grant.until });

    const profile = await dashboardAs(runtime, viewing).merchants.profile();
    expect(profile.id).toBe(shop.merchant.id);
    expect(await dashboardAs(runtime, viewing).staff.viewAsPageViewed({ path: "/dashboard/payments" })).toEqual({ recorded: true });

    const audit = await merchantAudit();
    expect(audit.filter((entry) => entry.actorId === staff.id).map((entry) => [entry.action, entry.details])).toEqual(
      expect.arrayContaining([
        ["staff.view_as_started", { reason: "ticket 4711: payouts missing", until: grant.until }],
        ["staff.view_as_page_viewed", { path: "/dashboard/payments" }],
      ]),
    );
  });

  it("refuses every mutation procedure of the dashboard's API while viewing, but Stop; REST is unaffected", async () => {
    const staff = await signedInStaff();
    await dashboardAs(runtime, staff).staff.startViewAs({ merchantId: shop.merchant.id, reason: "checking the refund flow" });
    const caller = dashboardAs(runtime, await current(staff));
    const refused = mutationPaths().filter((path) => !VIEW_AS_MUTATIONS.has(path));
    expect(refused.length).toBeGreaterThan(20);
    for (const path of refused) {
      await expect(call(caller, path, {}), path).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
    // The merchant's own server goes on as before.
    expect((await api.put(`/merchant/${shop.merchant.id}`, { key: shop.apiKey, body: { name: "Still mine" } })).status).toBe(200);

    await caller.staff.stopViewAs();
    const after = await current(staff);
    expect(after.viewAs).toBeUndefined();
    // Staff again: a merchant's procedure refuses them, naming the permission (as for any role lacking it).
    await expect(dashboardAs(runtime, after).merchants.profile()).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await merchantAudit()).filter((entry) => entry.actorId === staff.id).map((entry) => entry.action)).toContain("staff.view_as_ended");
  });

  it("ends by itself after an hour: the merchant's procedures refuse, page views are no longer recorded", async () => {
    const staff = await signedInStaff();
    await dashboardAs(runtime, staff).staff.startViewAs({ merchantId: shop.merchant.id, reason: "a long look" });
    const viewing = await current(staff);
    runtime.advanceTime(60 * 60 * 1000 + 1);
    await expect(dashboardAs(runtime, viewing).merchants.profile()).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await current(staff)).viewAs).toBeUndefined();
    expect(await dashboardAs(runtime, viewing).staff.viewAsPageViewed({ path: "/dashboard" })).toEqual({ recorded: false });
  });

  it("refuses a grant without a reason, or for a merchant that does not exist", async () => {
    const staff = await signedInStaff();
    await expect(dashboardAs(runtime, staff).staff.startViewAs({ merchantId: shop.merchant.id, reason: " " })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(dashboardAs(runtime, staff).staff.startViewAs({ merchantId: "mer_nobody", reason: "a look" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
