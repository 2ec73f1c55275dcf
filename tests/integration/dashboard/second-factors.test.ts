import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, recoveryCodes, totpFactors } from "../../../src/server/db/schema";
import type { Runtime } from "../../../src/server/runtime";
import type { ServiceContext } from "../../../src/server/services/context";
import { confirmTotp } from "../../../src/server/services/second-factors/confirm-totp";
import { disableTotp } from "../../../src/server/services/second-factors/disable-totp";
import { staffMustHaveSecondFactor } from "../../../src/server/services/second-factors/policy";
import { RECOVERY_CODE_COUNT } from "../../../src/server/services/second-factors/recovery-codes";
import { startTotpEnrolment } from "../../../src/server/services/second-factors/start-totp";
import { totpCodeAt } from "../../../src/server/services/second-factors/totp-codes";
import { MAX_CHALLENGE_FAILURES } from "../../../src/server/services/sign-in/challenges";
import { confirmEnrolmentAtSignIn, startEnrolmentAtSignIn } from "../../../src/server/services/sign-in/enrol";
import { FAILURE_LIMITS } from "../../../src/server/services/users/login-throttle";
import { actorOfSession, type SessionUser } from "../../../src/server/services/users/session-user";
import { testClient } from "../../support/client";
import { dashboardAs } from "../../support/dashboard";
import { registerTestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { beginAs, completeAs, signInWithPassword } from "../../support/sign-in";
import { createTestStaff, serviceContext, testIp } from "../../support/users";

// TOTP with recovery codes, the second step of signing in, and the rules requiring a second factor
// (docs/team-and-security.md, "Second factors").
let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await createTestRuntime();
});
afterAll(() => runtime.close());

const self = (user: SessionUser): ServiceContext => serviceContext(runtime, actorOfSession(user));

async function signedInMerchant(on: Runtime = runtime) {
  const { merchant, password } = await registerTestMerchant(testClient(on));
  const signedIn = await signInWithPassword(on, merchant.email, password);
  return { email: merchant.email, password, merchantId: merchant.id, ...signedIn };
}

/** Sets up an authenticator app for the user as the account page does; its secret and recovery codes. */
async function enrolTotp(user: SessionUser) {
  const { secret } = await startTotpEnrolment({ ctx: self(user) });
  const { recoveryCodes: codes } = await confirmTotp({ ctx: self(user), input: { code: totpCodeAt(secret, runtime.now()) } });
  return { secret, codes };
}

/** The current code, moved one step on each call (so a test's next sign-in never replays the last code). */
function codeAfter(secret: string, steps: number) {
  return totpCodeAt(secret, new Date(runtime.now().getTime() + steps * 30_000));
}

async function auditActions(userId: string) {
  const rows = await runtime.database.db.select().from(auditLog).where(eq(auditLog.targetId, userId));
  return rows.map((row) => row.action);
}

describe("setting up an authenticator app", () => {
  it("seals the secret, counts only once confirmed by a code, and gives ten recovery codes stored hashed", async () => {
    const { user, password } = await signedInMerchant();
    const { secret, uri, qrSvg } = await startTotpEnrolment({ ctx: self(user) });
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    expect(uri).toContain(`secret=${secret}`);
    expect(qrSvg).toMatch(/^<svg/);
    const [row] = await runtime.database.db.select().from(totpFactors).where(eq(totpFactors.userId, user.id));
    expect(row!.secretSealed).not.toContain(secret);
    expect(row!.confirmedAt).toBeNull();
    // Unconfirmed, it asks nothing at sign-in.
    expect((await beginAs(runtime, user.email, password)).needs).toBe("nothing");

    await expect(confirmTotp({ ctx: self(user), input: { code: "000000" } })).rejects.toMatchObject({
      code: "invalid_second_factor",
      errors: [{ path: "input.code", message: expect.any(String) }],
    });
    const { recoveryCodes: codes } = await confirmTotp({ ctx: self(user), input: { code: totpCodeAt(secret, runtime.now()) } });
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    const stored = await runtime.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(stored).toHaveLength(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(JSON.stringify(stored)).not.toContain(code.replace("-", ""));
    expect(runtime.logs.join("")).not.toContain(secret);
    expect(await auditActions(user.id)).toContain("user.totp_enabled");
    await expect(startTotpEnrolment({ ctx: self(user) })).rejects.toMatchObject({ code: "second_factor_exists" });
  });
});

async function merchantWithTotp() {
  const signedIn = await signedInMerchant();
  const { secret, codes } = await enrolTotp(signedIn.user);
  return { ...signedIn, secret, codes };
}

describe("signing in with a second factor", () => {
  it("asks for it after the password and accepts the app's current code", async () => {
    const { email, password, secret, user } = await merchantWithTotp();
    const begun = await beginAs(runtime, email, password);
    expect(begun).toMatchObject({ needs: "second_factor", methods: { totp: true, recoveryCode: true, passkey: false } });
    // The password alone does not finish it.
    await expect(completeAs(runtime, { token: begun.token, method: "password" })).rejects.toMatchObject({ code: "invalid_second_factor" });
    const signedIn = await completeAs(runtime, { token: begun.token, method: "totp", code: codeAfter(secret, 1) });
    expect(signedIn).toMatchObject({ id: user.id, email });
    // The challenge works once.
    await expect(completeAs(runtime, { token: begun.token, method: "totp", code: codeAfter(secret, 2) })).rejects.toMatchObject({ code: "sign_in_expired" });
    const audit = await runtime.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, user.id), eq(auditLog.action, "user.signed_in")));
    expect(audit.at(-1)?.details).toMatchObject({ method: "totp" });
  });

  it("refuses a replayed code, even across two sign-ins, and lets one of two racing uses through", async () => {
    const { email, password, secret, user } = await merchantWithTotp();
    const code = codeAfter(secret, 1);
    const first = await beginAs(runtime, email, password);
    await completeAs(runtime, { token: first.token, method: "totp", code });
    const second = await beginAs(runtime, email, password);
    await expect(completeAs(runtime, { token: second.token, method: "totp", code })).rejects.toMatchObject({
      code: "invalid_second_factor",
      detail: expect.stringContaining("already used"),
    });

    // A minute on, the app shows a newer code: two sign-ins racing with it, one passes.
    runtime.advanceTime(60_000);
    const racers = await Promise.all([beginAs(runtime, email, password), beginAs(runtime, email, password)]);
    const fresh = codeAfter(secret, 0);
    const outcomes = await Promise.allSettled(racers.map((begun) => completeAs(runtime, { token: begun.token, method: "totp", code: fresh })));
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    expect(await auditActions(user.id)).toContain("user.second_factor_failed");
  });

  it("ends a challenge after five wrong codes, and blocks the account for a while, not for ever", async () => {
    const { email, password, secret, user } = await merchantWithTotp();
    const begun = await beginAs(runtime, email, password);
    for (let i = 0; i < MAX_CHALLENGE_FAILURES; i++) {
      await expect(completeAs(runtime, { token: begun.token, method: "totp", code: "123456" })).rejects.toMatchObject({ code: expect.stringMatching(/invalid_second_factor|rate_limited/) });
    }
    // Even the right code no longer completes this challenge: the password step starts again.
    await expect(completeAs(runtime, { token: begun.token, method: "totp", code: codeAfter(secret, 1) })).rejects.toMatchObject({
      code: expect.stringMatching(/sign_in_expired|rate_limited/),
    });
    // The account's failures reached its limit (FAILURE_LIMITS.second_factor.account): the right code waits too.
    expect(FAILURE_LIMITS.second_factor.account.points).toBe(MAX_CHALLENGE_FAILURES);
    const again = await beginAs(runtime, email, password);
    const refused = await completeAs(runtime, { token: again.token, method: "totp", code: codeAfter(secret, 1) }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "rate_limited" });
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(FAILURE_LIMITS.second_factor.account.blockDuration);
    const failures = (await auditActions(user.id)).filter((action) => action === "user.second_factor_failed");
    expect(failures.length).toBeGreaterThanOrEqual(MAX_CHALLENGE_FAILURES - 1);
  });

  it("limits one address guessing codes across many accounts", async () => {
    const ip = testIp();
    let refused = false;
    for (let i = 0; i <= FAILURE_LIMITS.second_factor.ip.points && !refused; i += 4) {
      const { email, password } = await merchantWithTotp();
      const begun = await beginAs(runtime, email, password);
      for (let j = 0; j < 4; j++) {
        const error = await completeAs(runtime, { token: begun.token, method: "totp", code: "654321" }, ip).catch((caught: { code: string }) => caught);
        if ((error as { code: string }).code === "rate_limited") refused = true;
      }
    }
    expect(refused).toBe(true);
  });

  it("accepts each recovery code once, instead of the app", async () => {
    const { email, password, codes, user } = await merchantWithTotp();
    const begun = await beginAs(runtime, email, password);
    await completeAs(runtime, { token: begun.token, method: "recovery_code", code: codes[0]!.toLowerCase() });
    const again = await beginAs(runtime, email, password);
    await expect(completeAs(runtime, { token: again.token, method: "recovery_code", code: codes[0]! })).rejects.toMatchObject({ code: "invalid_second_factor" });
    await completeAs(runtime, { token: again.token, method: "recovery_code", code: codes[1]! });
    expect(await auditActions(user.id)).toContain("user.recovery_code_used");
    expect((await beginAs(runtime, email, password)).methods.recoveryCode).toBe(true);
  });

  it("removing the app needs the password, and then sign-in asks only for the password", async () => {
    const { email, password, user } = await merchantWithTotp();
    await expect(disableTotp({ ctx: self(user), input: { password: "not my password" } })).rejects.toMatchObject({
      code: "validation_failed",
      errors: [{ path: "input.password", message: expect.any(String) }],
    });
    expect((await beginAs(runtime, email, password)).needs).toBe("second_factor");
    await disableTotp({ ctx: self(user), input: { password } });
    expect((await beginAs(runtime, email, password)).needs).toBe("nothing");
    expect(await runtime.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toEqual([]);
    expect(await auditActions(user.id)).toContain("user.totp_disabled");
  });
});

describe("a second factor required", () => {
  it("by the merchant: a member without one sets up an app while signing in, and cannot remove their last", async () => {
    const { email, password, user, merchantId } = await signedInMerchant();
    await dashboardAs(runtime, user).merchants.setSecondFactorPolicy({ required: true });
    expect(await dashboardAs(runtime, user).merchants.secondFactorPolicy()).toEqual({ required: true });
    const begun = await beginAs(runtime, email, password);
    expect(begun.needs).toBe("enrolment");
    await expect(completeAs(runtime, { token: begun.token, method: "password" })).rejects.toMatchObject({ code: "second_factor_required" });

    const ctx = serviceContext(runtime, { type: "anonymous", ip: testIp() });
    const { secret } = await startEnrolmentAtSignIn({ ctx, input: { token: begun.token } });
    await expect(confirmEnrolmentAtSignIn({ ctx, input: { token: begun.token, code: "000000" } })).rejects.toMatchObject({ code: "invalid_second_factor" });
    const { recoveryCodes: codes } = await confirmEnrolmentAtSignIn({ ctx, input: { token: begun.token, code: totpCodeAt(secret, runtime.now()) } });
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(await completeAs(runtime, { token: begun.token, method: "password" })).toMatchObject({ id: user.id });

    await expect(disableTotp({ ctx: self(user), input: { password } })).rejects.toMatchObject({ code: "second_factor_required" });
    const audit = await runtime.database.db.select().from(auditLog).where(eq(auditLog.merchantId, merchantId));
    expect(audit.map((row) => row.action)).toContain("merchant.second_factor_required");
  });

  it("an enrolment token cannot be used by someone who skipped the password", async () => {
    await expect(startEnrolmentAtSignIn({ ctx: serviceContext(runtime, { type: "anonymous" }), input: { token: "made-up-token" } })).rejects.toMatchObject({
      code: "sign_in_expired",
    });
  });

  it("of support staff in production, and not outside it", async () => {
    // A second database only for this test: opened here rather than for the whole file.
    const production = await createTestRuntime({ env: { NODE_ENV: "production" } });
    try {
      const inProduction = await createTestStaff(production);
      expect((await beginAs(production, inProduction.user.email, inProduction.password)).needs).toBe("enrolment");
    } finally {
      await production.close();
    }
    const inTest = await createTestStaff(runtime);
    expect((await beginAs(runtime, inTest.user.email, inTest.password)).needs).toBe("nothing");
    expect(staffMustHaveSecondFactor({ NODE_ENV: "production" })).toBe(true);
    expect(staffMustHaveSecondFactor({ NODE_ENV: "development", STAFF_SECOND_FACTOR: "required" })).toBe(true);
    expect(staffMustHaveSecondFactor({ NODE_ENV: "production", STAFF_SECOND_FACTOR: "optional" })).toBe(false);
  });

  it("only the merchant's own users set the requirement; staff cannot", async () => {
    const staff = await createTestStaff(runtime);
    await expect(dashboardAs(runtime, { ...staff.user }).merchants.setSecondFactorPolicy({ required: true })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("the account page's procedures", () => {
  it("show the user's own factors, and need a signed-in user", async () => {
    const { user } = await merchantWithTotp();
    expect(await dashboardAs(runtime, user).account.security()).toMatchObject({ totp: true, passkeys: [], recoveryCodesLeft: RECOVERY_CODE_COUNT, requiredBy: null });
    await expect(dashboardAs(runtime, null).account.security()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(dashboardAs(runtime, null).account.startTotp()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("refuse input of the wrong shape with the failing field, changing nothing", async () => {
    const { user } = await signedInMerchant();
    await expect(dashboardAs(runtime, user).account.confirmTotp({ code: 123456 } as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(dashboardAs(runtime, user).account.disableTotp({ password: "x", extra: true } as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
