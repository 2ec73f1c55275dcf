import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lookUpSession, SESSION_CACHE_TTL_MS } from "../../../src/server/auth/session-lookup";
import { openServerDatabase } from "../../../src/server/db/open";
import { auditLog, authChallenges, sessions } from "../../../src/server/db/schema";
import { createRuntime, type Runtime } from "../../../src/server/runtime";
import { pruneSignInRecords, SESSION_KEEP_MS } from "../../../src/server/services/sessions/prune";
import { testClient } from "../../support/client";
import { dashboardAs } from "../../support/dashboard";
import { registerTestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { beginAs, signInWithPassword } from "../../support/sign-in";
import { createTestStaff, serviceContext } from "../../support/users";

// The user's own sessions (docs/team-and-security.md, "Sessions"): the list, ending one or all others, reaching
// every process within the session cache's TTL, and the pruning job. "Another process" is a second runtime on
// the same database, with its own cache (as in sessions.test.ts).
let runtime: TestRuntime;
let other: Runtime;

beforeAll(async () => {
  runtime = await createTestRuntime();
  const url = (runtime.database as { url?: string }).url;
  const database = url ? await openServerDatabase(url, { max: 2 }) : { ...runtime.database, close: async () => {} };
  other = createRuntime({ env: runtime.env, database, log: runtime.log });
});
afterAll(async () => {
  await other.close();
  await runtime.close();
});

async function userWithTwoDevices() {
  const { merchant, password } = await registerTestMerchant(testClient(runtime));
  const laptop = await signInWithPassword(runtime, merchant.email, password, { ip: "198.51.100.7", userAgent: "Mozilla/5.0 (Macintosh) Firefox/140.0" });
  const phone = await signInWithPassword(runtime, merchant.email, password, { ip: "203.0.113.9", userAgent: "Mozilla/5.0 (iPhone) Safari/605.1" });
  return { merchant, password, laptop, phone };
}

async function untilRefusedElsewhere(sessionId: string): Promise<number> {
  const started = Date.now();
  while ((await lookUpSession(other, sessionId)) !== null) {
    if (Date.now() - started > 10_000) throw new Error("the other process still accepts the session after 10 s");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - started;
}

describe("the list of one's sessions", () => {
  it("shows each live session's device, IP and last use, marks the current one, and nobody else's", async () => {
    const { laptop, phone } = await userWithTwoDevices();
    const stranger = await userWithTwoDevices();
    const list = await dashboardAs(runtime, laptop.user).account.sessions();
    expect(list.map((session) => session.id).sort()).toEqual([laptop.sessionId, phone.sessionId].sort());
    expect(list.find((session) => session.id === laptop.sessionId)).toMatchObject({
      current: true,
      ip: "198.51.100.7",
      userAgent: expect.stringContaining("Firefox"),
      lastSeenAt: expect.any(Date),
      createdAt: expect.any(Date),
    });
    expect(list.find((session) => session.id === phone.sessionId)).toMatchObject({ current: false, ip: "203.0.113.9" });
    expect(list.some((session) => session.id === stranger.laptop.sessionId)).toBe(false);
  });

  it("staff see theirs too; nobody signed out sees any", async () => {
    const staff = await createTestStaff(runtime);
    const signedIn = await signInWithPassword(runtime, staff.user.email, staff.password);
    expect((await dashboardAs(runtime, signedIn.user).account.sessions()).map((session) => session.id)).toEqual([signedIn.sessionId]);
    await expect(dashboardAs(runtime, null).account.sessions()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("ending sessions", () => {
  it("signs out another device: refused here at once, in every other process within the TTL, audit-logged", async () => {
    const { merchant, laptop, phone } = await userWithTwoDevices();
    expect(await lookUpSession(other, phone.sessionId)).not.toBeNull(); // cached there now
    expect(await dashboardAs(runtime, laptop.user).account.endSession({ id: phone.sessionId })).toEqual({ revoked: 1 });
    expect(await lookUpSession(runtime, phone.sessionId)).toBeNull();
    expect(await untilRefusedElsewhere(phone.sessionId)).toBeLessThanOrEqual(SESSION_CACHE_TTL_MS + 500);
    expect(await lookUpSession(runtime, laptop.sessionId)).not.toBeNull();
    const [row] = await runtime.database.db.select().from(sessions).where(eq(sessions.id, phone.sessionId));
    expect(row!.revokeReason).toBe("signed_out_elsewhere");
    const audit = await runtime.database.db.select().from(auditLog).where(eq(auditLog.merchantId, merchant.id));
    expect(audit.find((entry) => entry.action === "session.revoked")).toMatchObject({ targetId: phone.sessionId, actorId: laptop.user.id });
  });

  it("another user's session id is unknown, and stays live", async () => {
    const mine = await userWithTwoDevices();
    const theirs = await userWithTwoDevices();
    await expect(dashboardAs(runtime, mine.laptop.user).account.endSession({ id: theirs.phone.sessionId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await lookUpSession(runtime, theirs.phone.sessionId)).not.toBeNull();
    await expect(dashboardAs(runtime, mine.laptop.user).account.endSession({ id: "" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("signs out all other sessions, keeping the one that asks", async () => {
    const { merchant, password, laptop, phone } = await userWithTwoDevices();
    const tablet = await signInWithPassword(runtime, merchant.email, password);
    expect(await dashboardAs(runtime, laptop.user).account.endOtherSessions()).toEqual({ revoked: 2 });
    expect(await lookUpSession(runtime, laptop.sessionId)).not.toBeNull();
    for (const ended of [phone.sessionId, tablet.sessionId]) {
      expect(await lookUpSession(runtime, ended)).toBeNull();
      expect(await untilRefusedElsewhere(ended)).toBeLessThanOrEqual(SESSION_CACHE_TTL_MS + 500);
    }
    const audit = await runtime.database.db.select().from(auditLog).where(eq(auditLog.merchantId, merchant.id));
    expect(audit.find((entry) => entry.action === "session.revoked_others")?.details).toEqual({ sessionsEnded: 2 });
  });
});

describe("pruning", () => {
  it("deletes sessions ended a month ago and spent sign-in challenges, keeps live ones", async () => {
    const { laptop, phone, merchant, password } = await userWithTwoDevices();
    await dashboardAs(runtime, laptop.user).account.endSession({ id: phone.sessionId });
    await beginAs(runtime, merchant.email, password);
    runtime.advanceTime(SESSION_KEEP_MS + 13 * 3_600_000);
    try {
      // A session made now, in the moved clock, is live and stays.
      const fresh = await signInWithPassword(runtime, merchant.email, password);
      const ctx = serviceContext(runtime, { type: "system" });
      while ((await pruneSignInRecords({ ctx, input: { batchSize: 50 } })) === 50);
      const left = await runtime.database.db.select().from(sessions).where(inArray(sessions.id, [laptop.sessionId, phone.sessionId, fresh.sessionId]));
      expect(left.map((row) => row.id)).toEqual([fresh.sessionId]);
      const challenges = await runtime.database.db.select().from(authChallenges).where(eq(authChallenges.userId, laptop.user.id));
      // Only the fresh sign-in's challenge is left: the month-old ones (spent or not) are gone.
      expect(challenges).toHaveLength(1);
      expect(challenges[0]!.createdAt.getTime()).toBeGreaterThan(runtime.now().getTime() - 60_000);
    } finally {
      runtime.advanceTime(-(SESSION_KEEP_MS + 13 * 3_600_000));
    }
  });
});
