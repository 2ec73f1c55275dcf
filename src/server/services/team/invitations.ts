import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { newId } from "@/lib/ids";
import { digestToken, newOneTimeToken } from "@/server/crypto/one-time-token";
import { hashPassword } from "@/server/crypto/passwords";
import { invitations, memberships, merchants, users, type InvitationRow } from "@/server/db/schema";
import { isUniqueViolation } from "@/server/db/errors";
import { withTransaction } from "@/server/db/transaction";
import type { Executor } from "@/server/db/types";
import { recordAudit } from "../audit/record";
import { recordRefusal } from "../audit/record-refusal";
import { inTransaction, requireMerchantId, type ServiceContext } from "../context";
import { mailEnabled, sendMail } from "../email/send-mail";
import { NotFoundError, ServiceError } from "../errors";
import { failureThrottle } from "../users/login-throttle";
import { validateInput } from "../validate";
import {
  acceptAsNewInput,
  INVITATION_LIFETIME_MS,
  invitationIdInput,
  invitationLink,
  invitationTokenInput,
  inviteInput,
  type PendingInvitation,
  type TeamRules,
} from "./schemas";

/** Pending invitations of the merchant (not accepted, revoked or expired), newest first. */
export async function listInvitations({ ctx }: { ctx: ServiceContext }): Promise<PendingInvitation[]> {
  const merchantId = requireMerchantId(ctx);
  return ctx.db
    .select({ id: invitations.id, email: invitations.email, role: invitations.role, createdAt: invitations.createdAt, expiresAt: invitations.expiresAt })
    .from(invitations)
    .where(and(eq(invitations.merchantId, merchantId), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, ctx.now())))
    .orderBy(desc(invitations.createdAt));
}

/**
 * Invites a person by email with a role (`team.write`; an owner only by an owner: `team.ownership`): a one-time
 * link valid 7 days, only its digest stored. Earlier pending invitations of that email to this team end. The
 * link is answered once, for the inviter to copy, and mailed when SMTP_URL is set (`delivered` settles when the
 * mail has gone: for tests, never awaited by the answer). Audited.
 */
export async function inviteMember({ ctx, input, rules }: { ctx: ServiceContext; input: { email: string; role: string }; rules: TeamRules }) {
  const { email, role } = validateInput(inviteInput, input);
  const { actor } = ctx;
  if (actor.type !== "user") throw new ServiceError("forbidden", "Only the merchant's own members invite to its team.");
  const merchantId = requireMerchantId(ctx);
  const token = newOneTimeToken();
  const now = ctx.now();
  const made = await withTransaction(ctx.db, async (tx) => {
    const [merchant] = await tx.select({ name: merchants.name }).from(merchants).where(eq(merchants.id, merchantId)).for("update");
    const actorRole = await memberRole(tx, merchantId, actor.userId);
    if (!actorRole || !rules.holds(actorRole, "team.write")) {
      throw new ServiceError("forbidden", "Your role may not do this: it needs the team.write permission.", { members: { permission: "team.write" } });
    }
    if (role === "owner" && !rules.holds(actorRole, "team.ownership")) {
      throw new ServiceError("forbidden", "Only an owner may invite an owner: it needs the team.ownership permission.", { members: { permission: "team.ownership" } });
    }
    const [existing] = await tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.merchantId, merchantId), eq(users.email, email)))
      .limit(1);
    if (existing) throw new ServiceError("already_member", "This person is already a member of the team. Change their role instead.");
    await tx
      .update(invitations)
      .set({ revokedAt: now })
      .where(and(eq(invitations.merchantId, merchantId), eq(invitations.email, email), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)));
    const [row] = await tx
      .insert(invitations)
      .values({ merchantId, id: newId("invitation"), email, role, tokenHash: digestToken(token), invitedBy: actor.userId, expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS), createdAt: now })
      .returning();
    await recordAudit({ ctx: inTransaction(ctx, tx), input: { action: "team.invitation_created", targetType: "invitation", targetId: row!.id, merchantId, details: { email, role } } });
    return { row: row!, merchantName: merchant?.name ?? "a merchant" };
  });
  const link = invitationLink(ctx.env.PUBLIC_BASE_URL, token);
  const delivered = mailEnabled(ctx.env)
    ? sendMail({
        ctx,
        input: {
          kind: "team_invitation",
          to: email,
          subject: `You are invited to ${made.merchantName}'s team`,
          text: [
            `You are invited to join ${made.merchantName}'s team on Merchant Payments as ${role}.`,
            "",
            "To accept, open this link within 7 days (it works once):",
            link,
            "",
            "If you did not expect this, ignore this message.",
          ].join("\n"),
        },
      })
    : Promise.resolve({ sent: false });
  return { invitation: toPending(made.row), link, mail: mailEnabled(ctx.env) ? ("sent" as const) : ("unavailable" as const), delivered };
}

/** Ends a pending invitation (`team.write`): its link stops working. Another merchant's, or not pending: 404. Audited. */
export async function revokeInvitation({ ctx, input }: { ctx: ServiceContext; input: { id: string } }) {
  const { id } = validateInput(invitationIdInput, input);
  const merchantId = requireMerchantId(ctx);
  return withTransaction(ctx.db, async (tx) => {
    const [row] = await tx
      .update(invitations)
      .set({ revokedAt: ctx.now() })
      .where(and(eq(invitations.merchantId, merchantId), eq(invitations.id, id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
      .returning();
    if (!row) throw new NotFoundError("invitation");
    await recordAudit({ ctx: inTransaction(ctx, tx), input: { action: "team.invitation_revoked", targetType: "invitation", targetId: id, merchantId, details: { email: row.email } } });
    return toPending(row);
  });
}

/**
 * What an invitation link offers (the accept page): the merchant, the email and the role, and whether that email
 * has an account already (then its owner signs in to accept). A link that is unknown, used, revoked or expired is
 * refused with `invitation_invalid` saying which, and counts against the client's address.
 */
export async function describeInvitation({ ctx, input }: { ctx: ServiceContext; input: { token: string } }) {
  const { token } = validateInput(invitationTokenInput, input);
  const row = await liveInvitation(ctx, ctx.db, token);
  const [merchant] = await ctx.db.select({ name: merchants.name }).from(merchants).where(eq(merchants.id, row.merchantId)).limit(1);
  const [account] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, row.email)).limit(1);
  return { merchantName: merchant?.name ?? "", email: row.email, role: row.role, hasAccount: Boolean(account) };
}

/**
 * Accepts an invitation as a new person: makes their login (name, password) and their membership, and spends the
 * link, in one transaction. An email that has an account already must sign in and accept (acceptInvitation).
 * Signing in afterwards is the ordinary sign-in (a second factor set up there when the merchant requires one).
 */
export async function acceptInvitationAsNew({ ctx, input }: { ctx: ServiceContext; input: { token: string; name: string; password: string } }) {
  const { token, name, password } = validateInput(acceptAsNewInput, input);
  const passwordHash = await hashPassword(password);
  try {
    return await withTransaction(ctx.db, async (tx) => {
      const row = await spend(ctx, tx, token);
      const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, row.email)).limit(1);
      if (existing) throw new ServiceError("email_taken", "This email has an account already: sign in, then open the invitation link again.");
      const now = ctx.now();
      const userId = newId("user");
      await tx.insert(users).values({ id: userId, email: row.email, passwordHash, role: "merchant", merchantId: row.merchantId, name, createdAt: now, updatedAt: now });
      await tx.insert(memberships).values({ merchantId: row.merchantId, userId, role: row.role, createdAt: now, updatedAt: now });
      await recordAudit({
        ctx: { ...inTransaction(ctx, tx), actor: { type: "user", userId, merchantId: row.merchantId } },
        input: { action: "team.invitation_accepted", targetType: "invitation", targetId: row.id, merchantId: row.merchantId, details: { role: row.role, newAccount: true } },
      });
      return { userId, email: row.email, merchantId: row.merchantId, role: row.role };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ServiceError("email_taken", "This email has an account already: sign in, then open the invitation link again.");
    throw error;
  }
}

/**
 * Accepts an invitation as the signed-in person (a merchant's user), whose email must be the one invited:
 * another signed-in person is refused (`forbidden`), staff too. They join with the invited role.
 */
export async function acceptInvitation({ ctx, input }: { ctx: ServiceContext; input: { token: string } }) {
  const { token } = validateInput(invitationTokenInput, input);
  const { actor } = ctx;
  if (actor.type !== "user") throw new ServiceError("forbidden", "Sign in with the invited email's merchant account to accept.");
  // A refusal naming a team's invitation (used, revoked, expired, another person's) goes into that team's log, once
  // the refused transaction has rolled back (recordRefusal).
  let refused: { row: InvitationRow; reason: string } | undefined;
  const onRefused = (row: InvitationRow, reason: string) => (refused = { row, reason });
  try {
    return await acceptAsSignedIn(ctx, actor, token, onRefused);
  } catch (error) {
    if (refused) {
      const { row, reason } = refused;
      await recordRefusal({ ctx, input: { action: "team.invitation_refused", targetType: "invitation", targetId: row.id, merchantId: row.merchantId, details: { reason } } });
    }
    throw error;
  }
}

type Refused = (row: InvitationRow, reason: string) => void;

async function acceptAsSignedIn(ctx: ServiceContext, actor: Extract<ServiceContext["actor"], { type: "user" }>, token: string, onRefused: Refused) {
  return withTransaction(ctx.db, async (tx) => {
    const row = await liveInvitation(ctx, tx, token, onRefused);
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, actor.userId)).limit(1);
    if (!user || user.email !== row.email) {
      const reason = `This invitation is for ${row.email}. Sign out, then open the link again to accept it as that person.`;
      onRefused(row, reason);
      throw new ServiceError("forbidden", reason);
    }
    await spend(ctx, tx, token, onRefused);
    const now = ctx.now();
    const joined = await tx
      .insert(memberships)
      .values({ merchantId: row.merchantId, userId: actor.userId, role: row.role, createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning({ userId: memberships.userId });
    if (joined.length === 0) throw new ServiceError("already_member", "You are already a member of this team.");
    await recordAudit({
      ctx: { ...inTransaction(ctx, tx), actor: { ...actor, merchantId: row.merchantId } },
      input: { action: "team.invitation_accepted", targetType: "invitation", targetId: row.id, merchantId: row.merchantId, details: { role: row.role, newAccount: false } },
    });
    return { merchantId: row.merchantId, role: row.role };
  });
}

async function memberRole(tx: Executor, merchantId: string, userId: string) {
  const [row] = await tx.select({ role: memberships.role }).from(memberships).where(and(eq(memberships.merchantId, merchantId), eq(memberships.userId, userId))).limit(1);
  return row?.role ?? null;
}

/** The live invitation a token names; otherwise `invitation_invalid` saying why, the failure counted per address. */
async function liveInvitation(ctx: ServiceContext, db: Executor, token: string, onRefused?: Refused): Promise<InvitationRow> {
  const address = (ctx.actor.type === "anonymous" && ctx.actor.ip) || (ctx.actor.type === "user" ? `user:${ctx.actor.userId}` : "unknown");
  const throttle = failureThrottle("invitation_link", ctx.env);
  await throttle.check("links", address);
  const [row] = await db.select().from(invitations).where(eq(invitations.tokenHash, digestToken(token))).limit(1);
  const why = !row
    ? "This invitation link is not valid: check that it was copied whole."
    : row.acceptedAt
      ? "This invitation was already used."
      : row.revokedAt
        ? "This invitation was revoked by the team."
        : row.expiresAt <= ctx.now()
          ? "This invitation expired (links work 7 days)."
          : null;
  if (why) {
    await throttle.recordFailure(null, address);
    if (row) onRefused?.(row, why);
    throw new ServiceError("invitation_invalid", `${why} Ask the team's owner or an admin for a new one.`);
  }
  return row!;
}

/** Spends the link (one conditional UPDATE: two racing accepts cannot both pass). */
async function spend(ctx: ServiceContext, tx: Executor, token: string, onRefused?: Refused): Promise<InvitationRow> {
  const now = ctx.now();
  const [row] = await tx
    .update(invitations)
    .set({ acceptedAt: now })
    .where(and(eq(invitations.tokenHash, digestToken(token)), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now)))
    .returning();
  if (!row) {
    await liveInvitation(ctx, tx, token, onRefused); // throws, saying why
    throw new ServiceError("invitation_invalid", "This invitation is no longer valid.");
  }
  return row;
}

function toPending(row: InvitationRow): PendingInvitation {
  return { id: row.id, email: row.email, role: row.role, createdAt: row.createdAt, expiresAt: row.expiresAt };
}
