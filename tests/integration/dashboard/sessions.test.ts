import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forgetSessions, lookUpSession, SESSION_CACHE_TTL_MS } from "../../../src/server/auth/session-lookup";
import { openServerDatabase } from "../../../src/server/db/open";
import { auditLog, merchants, sessions, users } from "../../../src/server/db/schema";
import { createRuntime, type Runtime } from "../../../src/server/runtime";
import type { Actor } from "../../../src/server/services/context";
import { createSession } from "../../../src/server/services/sessions/create";
import { resolveSession } from "../../../src/server/services/sessions/resolve";
import { revokeSession } from "../../../src/server/services/sessions/revoke";
import { revokeAllSessionsOfUser } from "../../../src/server/services/sessions/revoke-all-for-user";
import { SESSION_LIFETIME_MS, TOUCH_INTERVAL_MS } from "../../../src/server/services/sessions/schemas";
import { authenticateUser } from "../../../src/server/services/users/authenticate";
import { changePassword } from "../../../src/server/services/users/change-password";
import { testClient, type TestClient } from "../../support/client";
import { registerTestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { createTestStaff, serviceContext, testIp } from "../../support/users";

// Sessions are rows (docs/dashboard.md, "Sessions"): signing out or changing the password ends them in every
// process within the cache's TTL. "Another process" is a second runtime on the same database: on the server, its
// own connection pool, as a second web process has; on the embedded database (one process by design), the same
// database under a second runtime with its own cache.
let runtime: TestRuntime;
let other: Runtime;
let api: TestClient;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  const url = (runtime.database as { url?: string }).url;
  const database = url ? await openServerDatabase(url, { max: 2 }) : { ...runtime.database, close: async () => {} };
  other = createRuntime({ env: runtime.env, database, log: runtime.log });
});
afterAll(async () => {
  await other.close();
  await runtime.close();
});

const system = () => serviceContext(runtime, { type: "system" });

/** Signs a registered merchant's user in as the dashboard does: the password checked, a session row made. */
async function signIn(email: string, password: string) {
  const { user } = await authenticateUser({ ctx: serviceContext(runtime, { type: "anonymous", ip: testIp() }), input: { email, password } });
  const actor: Actor = user.role === "staff" ? { type: "staff", userId: user.id } : { type: "user", userId: user.id, merchantId: user.merchantId! };
  const session = await createSession({ ctx: serviceContext(runtime, actor), input: { ip: "192.0.2.1", userAgent: "Mozilla/5.0 (test)" } });
  return { user, sessionId: session.id, actor: { ...actor, sessionId: session.id } as Actor };
}

async function signedInMerchant() {
  const { merchant, password } = await registerTestMerchant(api);
  return { merchant, password, ...(await signIn(merchant.email, password)) };
}

/** Polls the other process's lookup until it refuses the session; the time that took, in ms. */
async function untilRefusedElsewhere(sessionId: string): Promise<number> {
  const started = Date.now();
  while ((await lookUpSession(other, sessionId)) !== null) {
    if (Date.now() - started > 10_000) throw new Error("the other process still accepts the session after 10 s");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - started;
}

describe("sessions", () => {
  it("records the device and resolves to the user as they are now", async () => {
    const { user, sessionId } = await signedInMerchant();
    const [row] = await runtime.database.db.select().from(sessions).where(eq(sessions.id, sessionId));
    expect(row).toMatchObject({ userId: user.id, ip: "192.0.2.1", userAgent: "Mozilla/5.0 (test)", revokedAt: null, revokeReason: null });
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(SESSION_LIFETIME_MS);
    expect(await resolveSession({ ctx: system(), input: { id: sessionId } })).toMatchObject({ id: sessionId, user });
  });

  it("signing out ends the session in this process at once and in another within the cache's TTL", async () => {
    const { user, sessionId, actor } = await signedInMerchant();
    expect((await lookUpSession(runtime, sessionId))?.user).toEqual(user);
    expect((await lookUpSession(other, sessionId))?.user).toEqual(user); // cached there now

    expect(await revokeSession({ ctx: serviceContext(runtime, actor), input: { id: sessionId, reason: "signed_out" } })).toEqual({ revoked: true });
    forgetSessions(runtime, { sessionId });
    expect(await lookUpSession(runtime, sessionId)).toBeNull();
    const elapsed = await untilRefusedElsewhere(sessionId);
    expect(elapsed).toBeLessThanOrEqual(SESSION_CACHE_TTL_MS + 500);
    const [row] = await runtime.database.db.select().from(sessions).where(eq(sessions.id, sessionId));
    expect(row).toMatchObject({ revokeReason: "signed_out" });
    expect(row!.revokedAt).toBeInstanceOf(Date);
  });

  it("a password change ends every session of the user everywhere, the one that made it included", async () => {
    const { merchant, password, user, sessionId: current, actor } = await signedInMerchant();
    const elsewhere = (await signIn(merchant.email, password)).sessionId; // another device, or a stolen cookie
    expect(await lookUpSession(other, elsewhere)).not.toBeNull();
    expect(await lookUpSession(other, current)).not.toBeNull();

    expect(await changePassword({ ctx: serviceContext(runtime, actor), input: { currentPassword: password, newPassword: "a brand new password" } })).toEqual({
      sessionsEnded: 2,
    });
    forgetSessions(runtime, { userId: user.id });
    expect(await lookUpSession(runtime, elsewhere)).toBeNull();
    expect(await lookUpSession(runtime, current)).toBeNull();
    expect(await untilRefusedElsewhere(elsewhere)).toBeLessThanOrEqual(SESSION_CACHE_TTL_MS + 500);
    expect(await untilRefusedElsewhere(current)).toBeLessThanOrEqual(SESSION_CACHE_TTL_MS + 500);
    const ended = await runtime.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(ended.map((row) => row.revokeReason)).toEqual(["password_changed", "password_changed"]);
    const audit = await runtime.database.db.select().from(auditLog).where(eq(auditLog.action, "user.password_changed"));
    expect(audit.find((entry) => entry.targetId === user.id)?.details).toEqual({ sessionsEnded: 2 });
    // The new password signs in as a new, live session.
    const fresh = await signIn(merchant.email, "a brand new password");
    expect(await lookUpSession(other, fresh.sessionId)).not.toBeNull();
  });

  it("signing out other sessions (round 3's verb) keeps the one that asks", async () => {
    const { merchant, password, user, sessionId: current, actor } = await signedInMerchant();
    const elsewhere = (await signIn(merchant.email, password)).sessionId;
    const { revoked } = await revokeAllSessionsOfUser({ ctx: serviceContext(runtime, actor), input: { userId: user.id, reason: "signed_out", keepSessionId: current } });
    expect(revoked).toBe(1);
    expect(await resolveSession({ ctx: system(), input: { id: elsewhere } })).toBeNull();
    expect(await resolveSession({ ctx: system(), input: { id: current } })).not.toBeNull();
  });

  it("a user cannot end someone else's session, nor all of someone else's", async () => {
    const victim = await signedInMerchant();
    const attacker = await signedInMerchant();
    const ctx = serviceContext(runtime, attacker.actor);
    expect(await revokeSession({ ctx, input: { id: victim.sessionId, reason: "signed_out" } })).toEqual({ revoked: false });
    await expect(revokeAllSessionsOfUser({ ctx, input: { userId: victim.user.id, reason: "signed_out" } })).rejects.toMatchObject({ code: "forbidden" });
    expect(await resolveSession({ ctx: system(), input: { id: victim.sessionId } })).not.toBeNull();
  });

  it("ends with its lifetime, with its user, and while the merchant is suspended", async () => {
    const expiring = await signedInMerchant();
    runtime.advanceTime(SESSION_LIFETIME_MS + 1);
    try {
      expect(await resolveSession({ ctx: system(), input: { id: expiring.sessionId } })).toBeNull();
    } finally {
      runtime.advanceTime(-(SESSION_LIFETIME_MS + 1));
    }
    const suspended = await signedInMerchant();
    await runtime.database.db.update(merchants).set({ status: "suspended" }).where(eq(merchants.id, suspended.merchant.id));
    expect(await resolveSession({ ctx: system(), input: { id: suspended.sessionId } })).toBeNull();
    const deleted = await signedInMerchant();
    await runtime.database.db.delete(users).where(eq(users.id, deleted.user.id));
    expect(await resolveSession({ ctx: system(), input: { id: deleted.sessionId } })).toBeNull();
    expect(await resolveSession({ ctx: system(), input: { id: "ses_00000000000000000000000000" } })).toBeNull();
  });

  it("staff sessions work the same way", async () => {
    const { user, password } = await createTestStaff(runtime);
    const { sessionId, actor } = await signIn(user.email, password);
    expect((await lookUpSession(other, sessionId))?.user).toMatchObject({ id: user.id, role: "staff", merchantId: null });
    await revokeSession({ ctx: serviceContext(runtime, actor), input: { id: sessionId, reason: "signed_out" } });
    expect(await untilRefusedElsewhere(sessionId)).toBeLessThanOrEqual(SESSION_CACHE_TTL_MS + 500);
  });

  it("records the last use at most once a minute, from the lookup", async () => {
    const { sessionId } = await signedInMerchant();
    const lastSeen = async () => (await runtime.database.db.select().from(sessions).where(eq(sessions.id, sessionId)))[0]!.lastSeenAt.getTime();
    const first = await lastSeen();
    forgetSessions(runtime, { sessionId });
    await lookUpSession(runtime, sessionId);
    expect(await lastSeen()).toBe(first);
    runtime.advanceTime(TOUCH_INTERVAL_MS + 1_000);
    forgetSessions(runtime, { sessionId });
    await lookUpSession(runtime, sessionId);
    expect(await lastSeen()).toBeGreaterThan(first);
  });

  it("overlapping lookups of one session share one answer; a fresh one is made after the TTL", async () => {
    const { sessionId } = await signedInMerchant();
    const lookups = Array.from({ length: 20 }, () => lookUpSession(other, sessionId));
    expect(new Set(lookups).size).toBe(1);
    await Promise.all(lookups);
    expect(lookUpSession(other, sessionId)).toBe(lookups[0]);
    await new Promise((resolve) => setTimeout(resolve, SESSION_CACHE_TTL_MS + 50));
    expect(lookUpSession(other, sessionId)).not.toBe(lookups[0]);
  });
});
