import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, users } from "../../../src/server/db/schema";
import { authenticateUser } from "../../../src/server/services/users/authenticate";
import { changePassword } from "../../../src/server/services/users/change-password";
import { createStaffUser } from "../../../src/server/services/users/create-staff";
import { LOGIN_LIMITS } from "../../../src/server/services/users/login-throttle";
import { testClient, type TestClient } from "../../support/client";
import { registerTestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { signInWithPassword } from "../../support/sign-in";
import { createTestStaff, serviceContext, testIp } from "../../support/users";

let runtime: TestRuntime;
let api: TestClient;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
});
afterAll(() => runtime.close());

function login(email: string, password: string, ip = testIp()) {
  return authenticateUser({ ctx: serviceContext(runtime, { type: "anonymous", ip }), input: { email, password } });
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe("authenticateUser", () => {
  it("accepts the password given at registration, whatever the email's case; the completed sign-in is audit-logged", async () => {
    const { merchant, password } = await registerTestMerchant(api);
    const { user } = await login(merchant.email.toUpperCase(), password);
    expect(user).toMatchObject({ email: merchant.email, role: "merchant", merchantId: merchant.id });
    await signInWithPassword(runtime, merchant.email, password);
    const audit = await runtime.database.db.select().from(auditLog).where(eq(auditLog.targetId, user.id));
    expect(audit.map((row) => row.action)).toContain("user.signed_in");
  });

  it("audit-logs a wrong password for an existing account in its merchant's log, never the password", async () => {
    const { merchant } = await registerTestMerchant(api);
    await expect(login(merchant.email, "a wrong password typed")).rejects.toMatchObject({ code: "invalid_credentials" });
    const audit = await runtime.database.db.select().from(auditLog).where(eq(auditLog.merchantId, merchant.id));
    const failed = audit.filter((row) => row.action === "user.sign_in_failed");
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ actorType: "anonymous", targetType: "user", details: { step: "password" } });
    expect(JSON.stringify(audit)).not.toContain("a wrong password typed");
  });

  it("answers a wrong password and an unknown email the same way", async () => {
    const { merchant } = await registerTestMerchant(api);
    // Each awaited in turn: a second promise created up front could reject before anyone listens.
    const same = { code: "invalid_credentials", detail: "The email or the password is wrong." };
    await expect(login(merchant.email, "not the password at all")).rejects.toMatchObject(same);
    await expect(login("nobody-here@example.com", "not the password at all")).rejects.toMatchObject(same);
  });

  it("locks an account after repeated failures from many addresses, even for the right password", async () => {
    const { merchant, password } = await registerTestMerchant(api);
    for (let i = 0; i < LOGIN_LIMITS.account.points; i++) {
      expect(await codeOf(login(merchant.email, `wrong guess ${i}`))).toBe("invalid_credentials");
    }
    expect(await codeOf(login(merchant.email, password))).toBe("rate_limited");
  });

  it("limits one address guessing across many accounts", async () => {
    const ip = testIp();
    for (let i = 0; i < LOGIN_LIMITS.ip.points; i++) {
      expect(await codeOf(login(`guess-${i}-${ip}@example.com`, "password guess", ip))).toBe("invalid_credentials");
    }
    const { merchant, password } = await registerTestMerchant(api);
    expect(await codeOf(login(merchant.email, password, ip))).toBe("rate_limited");
    // Another address is not affected.
    expect(await codeOf(login(merchant.email, password))).toBeUndefined();
  });

  it("clears an account's failures on success", async () => {
    const { merchant, password } = await registerTestMerchant(api);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < LOGIN_LIMITS.account.points - 1; i++) await codeOf(login(merchant.email, "wrong"));
      expect(await codeOf(login(merchant.email, password))).toBeUndefined();
    }
  });

  it("never writes the password to the logs or the audit log", async () => {
    const { merchant, password } = await registerTestMerchant(api);
    await login(merchant.email, password);
    await codeOf(login(merchant.email, password + "x"));
    const audit = JSON.stringify(await runtime.database.db.select().from(auditLog));
    expect(runtime.logs.join("\n")).not.toContain(password);
    expect(audit).not.toContain(password);
  });
});

describe("password changes", () => {
  it("changes the password: the old one no longer signs in, the new one does (sessions: sessions.test.ts)", async () => {
    const { merchant, password } = await registerTestMerchant(api);
    const { user } = await login(merchant.email, password);
    const ctx = serviceContext(runtime, { type: "user", userId: user.id, merchantId: merchant.id });
    await changePassword({ ctx, input: { currentPassword: password, newPassword: "a brand new password" } });
    expect(await codeOf(login(merchant.email, password))).toBe("invalid_credentials");
    expect((await login(merchant.email, "a brand new password")).user.id).toBe(user.id);
  });

  it("refuses a wrong current password and a short new one, changing nothing", async () => {
    const { merchant, password } = await registerTestMerchant(api);
    const { user } = await login(merchant.email, password);
    const ctx = serviceContext(runtime, { type: "user", userId: user.id, merchantId: merchant.id });
    const [before] = await runtime.database.db.select().from(users).where(eq(users.id, user.id));
    await expect(
      changePassword({ ctx, input: { currentPassword: "not it at all", newPassword: "a brand new password" } }),
    ).rejects.toMatchObject({ code: "validation_failed", errors: [{ path: "input.currentPassword" }] });
    await expect(changePassword({ ctx, input: { currentPassword: password, newPassword: "short" } })).rejects.toMatchObject({
      code: "validation_failed",
      errors: [{ path: "input.newPassword" }],
    });
    const [after] = await runtime.database.db.select().from(users).where(eq(users.id, user.id));
    expect(after!.passwordHash).toBe(before!.passwordHash);
  });
});

describe("createStaffUser", () => {
  it("creates a staff login that signs in as staff, with no merchant, audit-logged", async () => {
    const { user, password } = await createTestStaff(runtime);
    const signedIn = await login(user.email, password);
    expect(signedIn.user).toEqual({ id: user.id, email: user.email, role: "staff", merchantId: null, access: "staff:admin" });
    await signInWithPassword(runtime, user.email, password);
    const audit = await runtime.database.db.select().from(auditLog).where(eq(auditLog.targetId, user.id));
    expect(audit.map((row) => row.action)).toEqual(expect.arrayContaining(["staff.created", "user.signed_in"]));
  });

  it("is refused to anyone but the operator (system actor) and for a taken email", async () => {
    const { merchant } = await registerTestMerchant(api);
    const input = { email: "someone-new@example.com", password: "long enough password" };
    await expect(
      createStaffUser({ ctx: serviceContext(runtime, { type: "user", userId: "usr_x", merchantId: merchant.id }), input }),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(
      createStaffUser({ ctx: serviceContext(runtime, { type: "system" }), input: { ...input, email: merchant.email } }),
    ).rejects.toMatchObject({ code: "email_taken" });
  });
});
