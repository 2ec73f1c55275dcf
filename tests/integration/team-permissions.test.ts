import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { may, MEMBER_ROLES, ROLES, STAFF_ROLES, type Role } from "../../src/server/auth/permissions";
import type { ProcedureMeta } from "../../src/server/trpc/init";
import { serviceErrorOf } from "../../src/server/trpc/errors";
import { appRouter } from "../../src/server/trpc/router";
import type { SessionUser } from "../../src/server/services/users/session-user";
import { testClient } from "../support/client";
import { dashboardAs, submitted } from "../support/dashboard";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";
import { addTestMember } from "../support/team";
import { createTestStaff } from "../support/users";

/**
 * The security suite of the team roles (docs/team-and-security.md, "Roles"): every procedure of the app router, called as each member
 * role and each staff role, is allowed or refused exactly as the permission table says (the expectation is
 * derived from the table and each procedure's declared permission, never copied). A refusal is FORBIDDEN with
 * code `forbidden` naming the permission; an allowed call may still fail on its (absent) input, never so.
 */

let runtime: TestRuntime;
let shop: TestMerchant;
const sessions = new Map<Role, SessionUser>();

beforeAll(async () => {
  runtime = await createTestRuntime({ env: { RATE_LIMIT_PER_USER: "100000" } });
  shop = await registerTestMerchant(testClient(runtime));
  for (const role of MEMBER_ROLES) sessions.set(`member:${role}`, await addTestMember(runtime, shop, role));
  for (const role of STAFF_ROLES) {
    const { user } = await createTestStaffWithRole(role);
    sessions.set(`staff:${role}`, user);
  }
}, 120_000);
afterAll(() => runtime.close());

async function createTestStaffWithRole(role: (typeof STAFF_ROLES)[number]) {
  const made = await createTestStaff(runtime);
  return { user: { ...made.user, access: `staff:${role}` as Role } };
}

const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { meta?: ProcedureMeta; type: string } }>);

/** Calls a procedure by its dotted path with no input; the error it ends with, or null. */
async function call(session: SessionUser, path: string, livemode: boolean): Promise<unknown> {
  let target: unknown = dashboardAs(runtime, session, { livemode });
  for (const part of path.split(".")) target = (target as Record<string, unknown>)[part];
  try {
    await (target as (input?: unknown) => Promise<unknown>)(undefined);
    return null;
  } catch (error) {
    return error;
  }
}

/** A refusal by the permission check: FORBIDDEN, code `forbidden`, naming one of the declared permissions. */
function refusedBy(error: unknown, declared: readonly string[]): boolean {
  const cause = serviceErrorOf(error);
  const permission = cause?.options.members?.permission;
  return (error as { code?: string } | null)?.code === "FORBIDDEN" && cause?.code === "forbidden" && permission !== undefined && declared.includes(permission);
}

describe.each([true, false])("every procedure as every role (livemode %s)", (livemode) => {
  // Procedures that end the caller's own membership or session run last, so the rest see the team intact.
  const last = new Set(["team.leave", "account.endOtherSessions"]);
  const ordered = [...procedures.filter(([path]) => !last.has(path)), ...procedures.filter(([path]) => last.has(path))];

  it.each(ROLES.map((role) => [role]))("%s is allowed exactly what the table grants it", async (role) => {
    const session = sessions.get(role)!;
    const mismatches: string[] = [];
    // What the dashboard offers this session (`access.procedures`): exactly the procedures that let it through.
    const offered = new Set(await dashboardAs(runtime, session, { livemode }).access.procedures());
    for (const [path, procedure] of ordered) {
      const declared = procedure._def.meta!.permission;
      if (declared === "public") {
        if (!offered.has(path) && path !== "access.procedures") mismatches.push(`${path} (public): not offered`);
        continue;
      }
      // Staff act in live mode whatever the switch says (docs/test-mode.md).
      const expected = declared.some((permission) => may(role, permission, role.startsWith("staff:") || livemode));
      const error = await call(session, path, livemode);
      const refused = refusedBy(error, declared);
      if (refused === expected) mismatches.push(`${path} (${declared.join("|")}): ${expected ? "refused" : "allowed"}`);
      if (offered.has(path) === refused) mismatches.push(`${path}: access.procedures ${refused ? "offers it, but it was refused" : "hides it, but it was allowed"}`);
      if (refused) expect(String((error as Error).message)).toContain(serviceErrorOf(error)!.options.members!.permission);
    }
    expect(mismatches).toEqual([]);
  }, 120_000);
});

describe("the permission refusal", () => {
  it("is FORBIDDEN with code forbidden and the permission, over the tRPC error shape too", async () => {
    const support = sessions.get("member:support")!;
    const error = await call(support, "apiKeys.list", true);
    expect(error).toMatchObject({ code: "FORBIDDEN" });
    expect(serviceErrorOf(error)).toMatchObject({ code: "forbidden", options: { members: { permission: "api_keys.read" } } });
  });

  it("another merchant's ids stay not found for every role that may read them", async () => {
    const other = await registerTestMerchant(testClient(runtime));
    const otherOwner = await addTestMember(runtime, other, "owner");
    const invoice = await dashboardAs(runtime, otherOwner).invoices.create(submitted({ amount: "10.00", currency: "EUR", description: "theirs" }));
    for (const role of MEMBER_ROLES) {
      // A fresh member: the suite above has some leave the team.
      const session = await addTestMember(runtime, shop, role);
      await expect(dashboardAs(runtime, session).payments.get({ id: "pay_01JD0000000000000000000000" })).rejects.toMatchObject({ code: "NOT_FOUND" });
      await expect(dashboardAs(runtime, session).invoices.get({ id: invoice.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
      await expect(dashboardAs(runtime, session).team.changeRole({ userId: otherOwner.id, role: "viewer" })).rejects.toMatchObject({
        code: role === "owner" || role === "admin" ? "NOT_FOUND" : "FORBIDDEN",
      });
    }
  });
});
