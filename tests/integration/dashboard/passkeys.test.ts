import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, passkeys } from "../../../src/server/db/schema";
import type { ServiceContext } from "../../../src/server/services/context";
import { finishPasskeyRegistration, startPasskeyRegistration } from "../../../src/server/services/second-factors/passkey-registration";
import { removePasskey } from "../../../src/server/services/second-factors/passkeys";
import { passkeyOptionsForSignIn, startPasskeySignIn } from "../../../src/server/services/sign-in/passkey-options";
import { actorOfSession, type SessionUser } from "../../../src/server/services/users/session-user";
import { testClient } from "../../support/client";
import { dashboardAs } from "../../support/dashboard";
import { registerTestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { beginAs, completeAs, signInWithPassword } from "../../support/sign-in";
import { SoftAuthenticator } from "../../support/soft-authenticator";
import { serviceContext } from "../../support/users";

// Passkeys (docs/team-and-security.md, "Second factors"), verified by @simplewebauthn/server against answers made
// by a software authenticator; Chromium's own path is in e2e/dashboard/sign-in-security.spec.ts.
const ORIGIN = "https://dash.payments.test";
let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await createTestRuntime({ env: { PUBLIC_BASE_URL: ORIGIN } });
});
afterAll(() => runtime.close());

const self = (user: SessionUser): ServiceContext => serviceContext(runtime, actorOfSession(user));

async function merchantWithPasskey() {
  const { merchant, password } = await registerTestMerchant(testClient(runtime));
  const { user } = await signInWithPassword(runtime, merchant.email, password);
  const authenticator = new SoftAuthenticator(ORIGIN);
  const { token, options } = await startPasskeyRegistration({ ctx: self(user) });
  const added = await finishPasskeyRegistration({ ctx: self(user), input: { token, name: "Laptop", response: authenticator.register(options) } });
  return { email: merchant.email, password, user, authenticator, passkeyId: added.id, merchantId: merchant.id };
}

describe("registering a passkey", () => {
  it("asks for a discoverable, user-verified credential of this site and stores its public key; audited", async () => {
    const { merchant, password } = await registerTestMerchant(testClient(runtime));
    const { user } = await signInWithPassword(runtime, merchant.email, password);
    const { options } = await startPasskeyRegistration({ ctx: self(user) });
    expect(options.rp).toMatchObject({ id: "dash.payments.test" });
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
    const { passkeyId } = await merchantWithPasskey();
    const [row] = await runtime.database.db.select().from(passkeys).where(eq(passkeys.id, passkeyId));
    expect(row).toMatchObject({ name: "Laptop", counter: 0, transports: ["internal"] });
    const audit = await runtime.database.db.select().from(auditLog).where(eq(auditLog.targetId, passkeyId));
    expect(audit.map((entry) => entry.action)).toEqual(["user.passkey_added"]);
  });

  it("excludes the user's own passkeys when adding another, and lists both, newest first", async () => {
    const { user, authenticator } = await merchantWithPasskey();
    const again = await startPasskeyRegistration({ ctx: self(user) });
    expect(again.options.excludeCredentials).toHaveLength(1);
    const second = await finishPasskeyRegistration({ ctx: self(user), input: { token: again.token, name: "Phone", response: authenticator.register(again.options) } });
    expect(second.name).toBe("Phone");
    expect((await dashboardAs(runtime, user).account.security()).passkeys.map((key) => key.name)).toEqual(["Phone", "Laptop"]);
  });

  it("refuses an answer to another challenge, from another site, without user verification, or a used token", async () => {
    const { merchant, password } = await registerTestMerchant(testClient(runtime));
    const { user } = await signInWithPassword(runtime, merchant.email, password);
    const first = await startPasskeyRegistration({ ctx: self(user) });
    const second = await startPasskeyRegistration({ ctx: self(user) });
    // An answer to the first challenge, handed in with the second token.
    await expect(
      finishPasskeyRegistration({ ctx: self(user), input: { token: second.token, name: "x", response: new SoftAuthenticator(ORIGIN).register(first.options) } }),
    ).rejects.toMatchObject({ code: "invalid_second_factor" });
    // The second token is spent by that attempt.
    await expect(
      finishPasskeyRegistration({ ctx: self(user), input: { token: second.token, name: "x", response: new SoftAuthenticator(ORIGIN).register(second.options) } }),
    ).rejects.toMatchObject({ code: "sign_in_expired" });
    const third = await startPasskeyRegistration({ ctx: self(user) });
    await expect(
      finishPasskeyRegistration({ ctx: self(user), input: { token: third.token, name: "x", response: new SoftAuthenticator("https://evil.example").register(third.options) } }),
    ).rejects.toMatchObject({ code: "invalid_second_factor" });
    const fourth = await startPasskeyRegistration({ ctx: self(user) });
    await expect(
      finishPasskeyRegistration({ ctx: self(user), input: { token: fourth.token, name: "x", response: new SoftAuthenticator(ORIGIN).register(fourth.options, { userVerified: false }) } }),
    ).rejects.toMatchObject({ code: "invalid_second_factor" });
    // Someone else's registration token is no use to this user.
    const other = await merchantWithPasskey();
    const theirs = await startPasskeyRegistration({ ctx: self(other.user) });
    await expect(
      finishPasskeyRegistration({ ctx: self(user), input: { token: theirs.token, name: "x", response: new SoftAuthenticator(ORIGIN).register(theirs.options) } }),
    ).rejects.toMatchObject({ code: "sign_in_expired" });
    expect(await runtime.database.db.select().from(passkeys).where(eq(passkeys.userId, user.id))).toEqual([]);
  });
});

describe("signing in with a passkey", () => {
  it("as the second step after the password", async () => {
    const { email, password, user, authenticator } = await merchantWithPasskey();
    const begun = await beginAs(runtime, email, password);
    expect(begun).toMatchObject({ needs: "second_factor", methods: { passkey: true, totp: false } });
    const { options } = await passkeyOptionsForSignIn({ ctx: serviceContext(runtime, { type: "anonymous" }), input: { token: begun.token } });
    expect(options.allowCredentials).toHaveLength(1);
    expect(await completeAs(runtime, { token: begun.token, method: "passkey", response: authenticator.authenticate(options) })).toMatchObject({ id: user.id });
  });

  it("alone: the passkey names the user, and must verify them", async () => {
    const { user, authenticator } = await merchantWithPasskey();
    const { token, options } = await startPasskeySignIn({ ctx: serviceContext(runtime, { type: "anonymous" }) });
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options.userVerification).toBe("required");
    expect(await completeAs(runtime, { token, method: "passkey", response: authenticator.authenticate(options) })).toMatchObject({ id: user.id });
    // Once.
    await expect(completeAs(runtime, { token, method: "passkey", response: authenticator.authenticate(options) })).rejects.toMatchObject({ code: "sign_in_expired" });
    const unverified = await startPasskeySignIn({ ctx: serviceContext(runtime, { type: "anonymous" }) });
    await expect(
      completeAs(runtime, { token: unverified.token, method: "passkey", response: authenticator.authenticate(unverified.options, { userVerified: false }) }),
    ).rejects.toMatchObject({ code: "invalid_second_factor" });
    const audit = await runtime.database.db.select().from(auditLog).where(eq(auditLog.targetId, user.id));
    expect(audit.filter((entry) => entry.action === "user.signed_in").at(-1)?.details).toMatchObject({ method: "passkey" });
  });

  it("refuses another user's passkey as the second step, a replayed assertion, and a counter gone backwards", async () => {
    const victim = await merchantWithPasskey();
    const attacker = await merchantWithPasskey();
    const begun = await beginAs(runtime, victim.email, victim.password);
    const { options } = await passkeyOptionsForSignIn({ ctx: serviceContext(runtime, { type: "anonymous" }), input: { token: begun.token } });
    await expect(completeAs(runtime, { token: begun.token, method: "passkey", response: attacker.authenticator.authenticate(options) })).rejects.toMatchObject({
      code: "invalid_second_factor",
    });
    const answer = victim.authenticator.authenticate(options, { counter: 5 });
    await completeAs(runtime, { token: begun.token, method: "passkey", response: answer });
    // The same signed answer again, to a new sign-in: its challenge is not this one's.
    const again = await beginAs(runtime, victim.email, victim.password);
    const fresh = await passkeyOptionsForSignIn({ ctx: serviceContext(runtime, { type: "anonymous" }), input: { token: again.token } });
    await expect(completeAs(runtime, { token: again.token, method: "passkey", response: answer })).rejects.toMatchObject({ code: "invalid_second_factor" });
    // A clone that signs with an older counter.
    await expect(completeAs(runtime, { token: again.token, method: "passkey", response: victim.authenticator.authenticate(fresh.options, { counter: 3 }) })).rejects.toMatchObject({
      code: "invalid_second_factor",
    });
    const audit = await runtime.database.db.select().from(auditLog).where(eq(auditLog.targetId, victim.user.id));
    expect(audit.filter((entry) => entry.action === "user.second_factor_failed").length).toBeGreaterThanOrEqual(3);
  });
});

describe("removing a passkey", () => {
  it("needs the password, answers another user's passkey as unknown, and keeps a required last factor", async () => {
    const { user, password, passkeyId, merchantId } = await merchantWithPasskey();
    const other = await merchantWithPasskey();
    await expect(removePasskey({ ctx: self(user), input: { id: other.passkeyId, password } })).rejects.toMatchObject({ code: "not_found" });
    await expect(removePasskey({ ctx: self(user), input: { id: passkeyId, password: "not the password" } })).rejects.toMatchObject({ code: "validation_failed" });
    await dashboardAs(runtime, user).merchants.setSecondFactorPolicy({ required: true });
    await expect(removePasskey({ ctx: self(user), input: { id: passkeyId, password } })).rejects.toMatchObject({ code: "second_factor_required" });
    await dashboardAs(runtime, user).merchants.setSecondFactorPolicy({ required: false });
    await removePasskey({ ctx: self(user), input: { id: passkeyId, password } });
    expect(await runtime.database.db.select().from(passkeys).where(eq(passkeys.userId, user.id))).toEqual([]);
    const audit = await runtime.database.db.select().from(auditLog).where(eq(auditLog.merchantId, merchantId));
    expect(audit.map((entry) => entry.action)).toEqual(expect.arrayContaining(["user.passkey_removed", "merchant.second_factor_required"]));
  });
});
