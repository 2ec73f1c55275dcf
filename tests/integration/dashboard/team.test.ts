import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEAM_RULES } from "../../../src/server/auth/permissions";
import { lookUpSession } from "../../../src/server/auth/session-lookup";
import { auditLog, invitations, memberships, sessions } from "../../../src/server/db/schema";
import { acceptInvitation, acceptInvitationAsNew, describeInvitation } from "../../../src/server/services/team/invitations";
import { changeMemberRole } from "../../../src/server/services/team/members";
import { INVITATION_LIFETIME_MS } from "../../../src/server/services/team/schemas";
import type { SessionUser } from "../../../src/server/services/users/session-user";
import { testClient, type TestClient } from "../../support/client";
import { dashboardAs } from "../../support/dashboard";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { signInWithPassword } from "../../support/sign-in";
import { linkIn, startSmtpSink, type SmtpSink } from "../../support/smtp-sink";
import { addTestMember } from "../../support/team";
import { serviceContext, testIp } from "../../support/users";

let sink: SmtpSink;
let runtime: TestRuntime;
let api: TestClient;

beforeAll(async () => {
  sink = await startSmtpSink();
  runtime = await createTestRuntime({ env: { SMTP_URL: sink.url, MAIL_FROM: "Payments <no-reply@payments.test>", PUBLIC_BASE_URL: "https://dash.payments.test" } });
  api = testClient(runtime);
});
afterAll(async () => {
  await runtime.close();
  await sink.close();
});

/** A registered merchant and its first owner, signed in (a real session row). */
async function team(): Promise<{ shop: TestMerchant; owner: SessionUser }> {
  const shop = await registerTestMerchant(api);
  const { user } = await signInWithPassword(runtime, shop.merchant.email, shop.password);
  return { shop, owner: user };
}

const tokenOf = (link: string) => decodeURIComponent(link.split("/invite/")[1]!);

describe("the team", () => {
  it("registration makes the registering person the owner; they list the team", async () => {
    const { owner } = await team();
    expect(owner.access).toBe("member:owner");
    const listed = await dashboardAs(runtime, owner).team.members();
    expect(listed.members).toEqual([expect.objectContaining({ userId: owner.id, email: owner.email, role: "owner" })]);
  });

  it("a role change is seen at the person's next request in this process at once; removal ends their sessions for that merchant", async () => {
    const { shop, owner } = await team();
    const invited = await dashboardAs(runtime, owner).team.invite({ email: `agent-${shop.merchant.id}@example.com`, role: "support" });
    const joined = await acceptInvitationAsNew({ ctx: serviceContext(runtime, { type: "anonymous", ip: testIp() }), input: { token: tokenOf(invited.link), name: "Agent", password: "a long agent password" } });
    const agent = await signInWithPassword(runtime, joined.email, "a long agent password");
    expect((await lookUpSession(runtime, agent.sessionId))?.user.access).toBe("member:support");

    await dashboardAs(runtime, owner).team.changeRole({ userId: agent.user.id, role: "developer" });
    expect((await lookUpSession(runtime, agent.sessionId))?.user.access).toBe("member:developer");

    await dashboardAs(runtime, owner).team.remove({ userId: agent.user.id });
    expect(await lookUpSession(runtime, agent.sessionId)).toBeNull();
    const [row] = await runtime.database.db.select().from(sessions).where(eq(sessions.id, agent.sessionId));
    expect(row).toMatchObject({ revokeReason: "removed_from_team" });
    const actions = (await runtime.database.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.merchantId, shop.merchant.id))).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(["team.invitation_created", "team.invitation_accepted", "team.role_changed", "team.member_removed"]));
  });

  it("only owners make or unmake owners; admins cannot touch owners; nobody raises their own role", async () => {
    const { shop, owner } = await team();
    const admin = await addTestMember(runtime, shop, "admin");
    const viewer = await addTestMember(runtime, shop, "viewer");
    await expect(dashboardAs(runtime, admin).team.changeRole({ userId: viewer.id, role: "owner" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(dashboardAs(runtime, admin).team.changeRole({ userId: owner.id, role: "viewer" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(dashboardAs(runtime, admin).team.remove({ userId: owner.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(dashboardAs(runtime, admin).team.invite({ email: "new-owner@example.com", role: "owner" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(dashboardAs(runtime, viewer).team.changeRole({ userId: viewer.id, role: "admin" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    // The service refuses a raise of one's own role even to a caller the adapter let through.
    await expect(changeMemberRole({ ctx: serviceContext(runtime, { type: "user", userId: admin.id, merchantId: shop.merchant.id }), input: { userId: admin.id, role: "owner" }, rules: TEAM_RULES })).rejects.toMatchObject({ code: "forbidden" });
    await dashboardAs(runtime, admin).team.changeRole({ userId: viewer.id, role: "support" });
    await dashboardAs(runtime, owner).team.changeRole({ userId: admin.id, role: "owner" });
  });

  it("the last owner can neither leave nor be demoted; two owners demoting each other at once leave one", async () => {
    const { shop, owner } = await team();
    await expect(dashboardAs(runtime, owner).team.leave()).rejects.toMatchObject({ code: "CONFLICT", cause: { code: "last_owner" } });
    await expect(dashboardAs(runtime, owner).team.changeRole({ userId: owner.id, role: "admin" })).rejects.toMatchObject({ code: "CONFLICT", cause: { code: "last_owner" } });
    const second = await addTestMember(runtime, shop, "owner");
    const results = await Promise.allSettled([
      dashboardAs(runtime, owner).team.changeRole({ userId: second.id, role: "admin" }),
      dashboardAs(runtime, second).team.changeRole({ userId: owner.id, role: "admin" }),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const owners = await runtime.database.db.select().from(memberships).where(and(eq(memberships.merchantId, shop.merchant.id), eq(memberships.role, "owner")));
    expect(owners).toHaveLength(1);
  });

  it("another merchant's member is not found", async () => {
    const { owner } = await team();
    const { owner: theirs } = await team();
    await expect(dashboardAs(runtime, owner).team.remove({ userId: theirs.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(dashboardAs(runtime, owner).team.changeRole({ userId: theirs.id, role: "viewer" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("invitations", () => {
  it("mails a one-time link valid 7 days, stores only its digest, and shows it once to the inviter", async () => {
    const { shop, owner } = await team();
    const email = `invitee-${shop.merchant.id}@example.com`;
    const invited = await dashboardAs(runtime, owner).team.invite({ email, role: "viewer" });
    expect(invited).toMatchObject({ mail: "sent", invitation: { email, role: "viewer" } });
    const mail = await sink.waitFor((message) => JSON.stringify(message.to).includes(email));
    expect(linkIn(mail)).toBe(invited.link);
    const [row] = await runtime.database.db.select().from(invitations).where(eq(invitations.id, invited.invitation.id));
    expect(row!.tokenHash).not.toContain(tokenOf(invited.link));
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(INVITATION_LIFETIME_MS);
    expect((await dashboardAs(runtime, owner).team.members()).invitations).toEqual([expect.objectContaining({ email, role: "viewer" })]);
  });

  it("refuses a reused, revoked or expired link with a clear message", async () => {
    const { shop, owner } = await team();
    const anonymous = () => serviceContext(runtime, { type: "anonymous", ip: testIp() });
    const first = await dashboardAs(runtime, owner).team.invite({ email: `once-${shop.merchant.id}@example.com`, role: "viewer" });
    await acceptInvitationAsNew({ ctx: anonymous(), input: { token: tokenOf(first.link), name: "Once", password: "a long enough password" } });
    await expect(describeInvitation({ ctx: anonymous(), input: { token: tokenOf(first.link) } })).rejects.toMatchObject({ code: "invitation_invalid", detail: expect.stringContaining("already used") });

    const revoked = await dashboardAs(runtime, owner).team.invite({ email: `revoked-${shop.merchant.id}@example.com`, role: "viewer" });
    await dashboardAs(runtime, owner).team.revokeInvitation({ id: revoked.invitation.id });
    await expect(acceptInvitationAsNew({ ctx: anonymous(), input: { token: tokenOf(revoked.link), name: "R", password: "a long enough password" } })).rejects.toMatchObject({ code: "invitation_invalid", detail: expect.stringContaining("revoked") });

    const expired = await dashboardAs(runtime, owner).team.invite({ email: `late-${shop.merchant.id}@example.com`, role: "viewer" });
    const later = { ...anonymous(), now: () => new Date(Date.now() + INVITATION_LIFETIME_MS + 1000) };
    await expect(describeInvitation({ ctx: later, input: { token: tokenOf(expired.link) } })).rejects.toMatchObject({ code: "invitation_invalid", detail: expect.stringContaining("expired") });
  });

  it("a signed-in person whose email matches joins (and may switch to it); another signed-in person is refused", async () => {
    const { owner: mine } = await team();
    const { shop: theirs, owner: theirOwner } = await team();
    const invited = await dashboardAs(runtime, theirOwner).team.invite({ email: mine.email, role: "developer" });
    const stranger = await addTestMember(runtime, theirs, "viewer");
    await expect(acceptInvitation({ ctx: serviceContext(runtime, { type: "user", userId: stranger.id, merchantId: theirs.merchant.id }), input: { token: tokenOf(invited.link) } })).rejects.toMatchObject({ code: "forbidden" });
    await acceptInvitation({ ctx: serviceContext(runtime, { type: "user", userId: mine.id, merchantId: mine.merchantId! }), input: { token: tokenOf(invited.link) } });

    const choices = await dashboardAs(runtime, mine).account.memberships();
    expect(choices.memberships.map((choice) => choice.merchantId).sort()).toEqual([mine.merchantId, theirs.merchant.id].sort());
    await dashboardAs(runtime, mine).account.switchMerchant({ merchantId: theirs.merchant.id });
    expect((await lookUpSession(runtime, mine.sessionId!))?.user).toMatchObject({ merchantId: theirs.merchant.id, access: "member:developer" });
    // Only to a merchant one belongs to.
    const { shop: elsewhere } = await team();
    await expect(dashboardAs(runtime, mine).account.switchMerchant({ merchantId: elsewhere.merchant.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
