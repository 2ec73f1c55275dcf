import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumeResetRequest } from "../../../src/server/auth/reset-limit";
import { lookUpSession } from "../../../src/server/auth/session-lookup";
import { auditLog, passwordResets, sessions } from "../../../src/server/db/schema";
import { issuePasswordResetLink, requestPasswordReset } from "../../../src/server/services/password-resets/request";
import { resetPassword } from "../../../src/server/services/password-resets/reset";
import { RESET_LINK_LIFETIME_MS } from "../../../src/server/services/password-resets/schemas";
import { FAILURE_LIMITS } from "../../../src/server/services/users/login-throttle";
import { RESET_REQUEST_EMAIL_LIMIT } from "../../../src/server/rate-limit/limits";
import { testClient } from "../../support/client";
import { registerTestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { beginAs, signInWithPassword } from "../../support/sign-in";
import { linkIn, startSmtpSink, type SmtpSink } from "../../support/smtp-sink";
import { serviceContext, testIp } from "../../support/users";

// Password reset by email (docs/team-and-security.md, "Password reset"), mailed through a real SMTP server.
let sink: SmtpSink;
let runtime: TestRuntime;
let withoutMail: TestRuntime;

beforeAll(async () => {
  sink = await startSmtpSink();
  runtime = await createTestRuntime({ env: { SMTP_URL: sink.url, MAIL_FROM: "Payments <no-reply@payments.test>", PUBLIC_BASE_URL: "https://dash.payments.test" } });
  withoutMail = await createTestRuntime();
});
afterAll(async () => {
  await runtime.close();
  await withoutMail.close();
  await sink.close();
});

const anonymous = (ip = testIp()) => serviceContext(runtime, { type: "anonymous", ip });

async function requestReset(email: string, ip = testIp()) {
  await consumeResetRequest(runtime, ip, email);
  const answer = await requestPasswordReset({ ctx: anonymous(ip), input: { email } });
  await answer.delivered;
  return answer;
}

async function resetLinkFor(email: string): Promise<{ url: URL; token: string }> {
  const mail = await sink.waitFor((message) => JSON.stringify(message.to).includes(email));
  const url = new URL(linkIn(mail));
  return { url, token: url.searchParams.get("token")! };
}

async function freshMerchant() {
  const { merchant, password } = await registerTestMerchant(testClient(runtime));
  return { email: merchant.email, password, merchantId: merchant.id };
}

describe("requesting a reset", () => {
  it("mails a one-time link to the account's address, and stores only the token's digest", async () => {
    const { email } = await freshMerchant();
    expect(await requestReset(email)).toMatchObject({ mail: "sent_if_account" });
    const mail = await sink.waitFor((message) => JSON.stringify(message.to).includes(email));
    expect(mail.from?.text).toContain("no-reply@payments.test");
    expect(mail.subject).toBe("Reset your password");
    const { url, token } = await resetLinkFor(email);
    expect(`${url.origin}${url.pathname}`).toBe("https://dash.payments.test/reset-password");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await runtime.database.db.select().from(passwordResets);
    expect(rows.some((row) => row.tokenHash === token)).toBe(false);
    expect(JSON.stringify(await runtime.database.db.select().from(auditLog))).not.toContain(token);
    expect(runtime.logs.join("")).not.toContain(token);
  });

  it("answers an unknown address exactly as a known one, and sends nothing", async () => {
    const before = sink.messages.length;
    const unknown = await requestReset("nobody-at-all@example.com");
    const { email } = await freshMerchant();
    const known = await requestReset(email);
    expect(unknown.mail).toBe(known.mail);
    await sink.waitFor((message) => JSON.stringify(message.to).includes(email));
    expect(sink.messages.slice(before).some((message) => JSON.stringify(message.to).includes("nobody-at-all"))).toBe(false);
  });

  it("limits requests per typed address and per client address, known or not", async () => {
    const address = `limit-${Date.now()}@example.com`;
    for (let i = 0; i < RESET_REQUEST_EMAIL_LIMIT.limit; i++) await consumeResetRequest(runtime, testIp(), address);
    await expect(consumeResetRequest(runtime, testIp(), address.toUpperCase())).rejects.toMatchObject({ code: "rate_limited" });
    const ip = testIp();
    for (let i = 0; i < 10; i++) await consumeResetRequest(runtime, ip, `other-${i}-${Date.now()}@example.com`);
    await expect(consumeResetRequest(runtime, ip, "one-more@example.com")).rejects.toMatchObject({ code: "rate_limited" });
  });

  it("without SMTP_URL makes no link and says mail is unavailable", async () => {
    const { merchant } = await registerTestMerchant(testClient(withoutMail));
    const answer = await requestPasswordReset({ ctx: serviceContext(withoutMail, { type: "anonymous", ip: testIp() }), input: { email: merchant.email } });
    expect(answer.mail).toBe("unavailable");
    expect(await withoutMail.database.db.select().from(passwordResets)).toEqual([]);
  });

  it("without SMTP_URL an operator issues the link (npm run password:reset-link); nobody else can", async () => {
    const { merchant } = await registerTestMerchant(testClient(withoutMail));
    const system = serviceContext(withoutMail, { type: "system" });
    const link = await issuePasswordResetLink({ ctx: system, input: { email: merchant.email } });
    const token = new URL(link!).searchParams.get("token")!;
    await resetPassword({ ctx: serviceContext(withoutMail, { type: "anonymous", ip: testIp() }), input: { token, newPassword: "set by the operator's link" } });
    expect(await issuePasswordResetLink({ ctx: system, input: { email: "nobody-here@example.com" } })).toBeNull();
    await expect(
      issuePasswordResetLink({ ctx: serviceContext(withoutMail, { type: "user", userId: "usr_x", merchantId: merchant.id }), input: { email: merchant.email } }),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(issuePasswordResetLink({ ctx: serviceContext(withoutMail, { type: "anonymous" }), input: { email: merchant.email } })).rejects.toMatchObject({ code: "forbidden" });
  });

  it("refuses an address that is no email with the failing field, writing nothing", async () => {
    const before = (await runtime.database.db.select().from(passwordResets)).length;
    await expect(requestPasswordReset({ ctx: anonymous(), input: { email: "not an email" } })).rejects.toMatchObject({
      code: "validation_failed",
      errors: [{ path: "input.email", message: expect.any(String) }],
    });
    expect((await runtime.database.db.select().from(passwordResets)).length).toBe(before);
  });
});

describe("using the link", () => {
  it("sets the new password, ends every session of the user, and is audited", async () => {
    const { email, password, merchantId } = await freshMerchant();
    const first = await signInWithPassword(runtime, email, password);
    const second = await signInWithPassword(runtime, email, password);
    expect(await lookUpSession(runtime, first.sessionId)).not.toBeNull();
    expect(await lookUpSession(runtime, second.sessionId)).not.toBeNull();
    await requestReset(email);
    const { token } = await resetLinkFor(email);

    expect(await resetPassword({ ctx: anonymous(), input: { token, newPassword: "a fresh password 123" } })).toMatchObject({ sessionsEnded: 2 });
    const ended = await runtime.database.db.select().from(sessions).where(eq(sessions.userId, first.user.id));
    expect(ended.map((row) => row.revokeReason)).toEqual(["password_reset", "password_reset"]);
    await expect(beginAs(runtime, email, password)).rejects.toMatchObject({ code: "invalid_credentials" });
    expect((await beginAs(runtime, email, "a fresh password 123")).needs).toBe("nothing");
    const audit = await runtime.database.db.select().from(auditLog).where(eq(auditLog.merchantId, merchantId));
    expect(audit.map((row) => row.action)).toEqual(expect.arrayContaining(["user.password_reset_requested", "user.password_reset"]));
  });

  it("works once: a reused link is refused and changes nothing", async () => {
    const { email } = await freshMerchant();
    await requestReset(email);
    const { token } = await resetLinkFor(email);
    await resetPassword({ ctx: anonymous(), input: { token, newPassword: "first new password" } });
    await expect(resetPassword({ ctx: anonymous(), input: { token, newPassword: "second new password" } })).rejects.toMatchObject({ code: "reset_link_invalid" });
    expect((await beginAs(runtime, email, "first new password")).needs).toBe("nothing");
  });

  it("two racing uses of one link: exactly one sets its password", async () => {
    const { email } = await freshMerchant();
    await requestReset(email);
    const { token } = await resetLinkFor(email);
    const outcomes = await Promise.allSettled(
      ["racing password one", "racing password two"].map((newPassword) => resetPassword({ ctx: anonymous(), input: { token, newPassword } })),
    );
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.status === "rejected").map((outcome) => (outcome as PromiseRejectedResult).reason.code)).toEqual(["reset_link_invalid"]);
  });

  it("expires after 30 minutes", async () => {
    const { email, password } = await freshMerchant();
    await requestReset(email);
    const { token } = await resetLinkFor(email);
    runtime.advanceTime(RESET_LINK_LIFETIME_MS + 1_000);
    try {
      await expect(resetPassword({ ctx: anonymous(), input: { token, newPassword: "too late a password" } })).rejects.toMatchObject({ code: "reset_link_invalid" });
    } finally {
      runtime.advanceTime(-(RESET_LINK_LIFETIME_MS + 1_000));
    }
    expect((await beginAs(runtime, email, password)).needs).toBe("nothing");
  });

  it("a newer link replaces the older one", async () => {
    const { email } = await freshMerchant();
    await requestReset(email);
    const older = await resetLinkFor(email);
    const count = sink.messages.length;
    await requestReset(email);
    const newer = await sink.waitFor((message) => sink.messages.indexOf(message) >= count && JSON.stringify(message.to).includes(email));
    const newerToken = new URL(linkIn(newer)).searchParams.get("token")!;
    expect(newerToken).not.toBe(older.token);
    await expect(resetPassword({ ctx: anonymous(), input: { token: older.token, newPassword: "via the old link" } })).rejects.toMatchObject({ code: "reset_link_invalid" });
    await resetPassword({ ctx: anonymous(), input: { token: newerToken, newPassword: "via the new link" } });
  });

  it("refuses a weak new password with the failing field, spending nothing", async () => {
    const { email } = await freshMerchant();
    await requestReset(email);
    const { token } = await resetLinkFor(email);
    await expect(resetPassword({ ctx: anonymous(), input: { token, newPassword: "short" } })).rejects.toMatchObject({
      code: "validation_failed",
      errors: [{ path: "input.newPassword", message: expect.any(String) }],
    });
    await resetPassword({ ctx: anonymous(), input: { token, newPassword: "long enough password" } });
  });

  it("guessing links from one address is limited", async () => {
    const ip = testIp();
    for (let i = 0; i < FAILURE_LIMITS.reset_link.ip.points; i++) {
      await expect(resetPassword({ ctx: anonymous(ip), input: { token: `guess-${i}`, newPassword: "a guessed password" } })).rejects.toMatchObject({ code: "reset_link_invalid" });
    }
    await expect(resetPassword({ ctx: anonymous(ip), input: { token: "one more guess", newPassword: "a guessed password" } })).rejects.toMatchObject({ code: "rate_limited" });
  });
});
