import { and, asc, count, eq, isNull, ne } from "drizzle-orm";
import type { MemberRole } from "@/lib/roles";
import { memberships, merchants, sessions, users } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import type { Executor } from "@/server/db/types";
import { recordAudit } from "../audit/record";
import { inTransaction, requireMerchantId, type ServiceContext } from "../context";
import { NotFoundError, ServiceError } from "../errors";
import { validateInput } from "../validate";
import { changeRoleInput, removeMemberInput, type Member, type TeamRules } from "./schemas";

/** The merchant's team: every member with their role, oldest first. */
export async function listMembers({ ctx }: { ctx: ServiceContext }): Promise<Member[]> {
  const merchantId = requireMerchantId(ctx);
  return ctx.db
    .select({ userId: users.id, email: users.email, name: users.name, role: memberships.role, joinedAt: memberships.createdAt })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.merchantId, merchantId))
    .orderBy(asc(memberships.createdAt), asc(users.id));
}

interface TeamChange {
  tx: Executor;
  merchantId: string;
  actorUserId: string;
  /** The acting member's role as it is now, under the lock. */
  actorRole: MemberRole;
  /** The member changed, or null when they are not in this team (another merchant's, or gone: 404). */
  targetRole: MemberRole | null;
}

/**
 * Runs a change to a merchant's team with the merchant's row locked, so team changes of one merchant happen one
 * at a time: two owners demoting each other at once are checked one after the other, and the second finds
 * itself the last owner. The acting member's role is read under the lock too (not the session's, which may be up
 * to the session cache's TTL old).
 */
async function changeTeam<T>(ctx: ServiceContext, targetUserId: string, change: (team: TeamChange) => Promise<T>): Promise<T> {
  const { actor } = ctx;
  if (actor.type !== "user") throw new ServiceError("forbidden", "Only the merchant's own members change its team.");
  const merchantId = requireMerchantId(ctx);
  return withTransaction(ctx.db, async (tx) => {
    await tx.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, merchantId)).for("update");
    const rows = await tx
      .select({ userId: memberships.userId, role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.merchantId, merchantId)));
    const roleOf = (userId: string) => rows.find((row) => row.userId === userId)?.role ?? null;
    const actorRole = roleOf(actor.userId);
    if (!actorRole) throw new ServiceError("forbidden", "You are no longer a member of this team.");
    return change({ tx, merchantId, actorUserId: actor.userId, actorRole, targetRole: roleOf(targetUserId) });
  });
}

async function ownerCount(tx: Executor, merchantId: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(memberships).where(and(eq(memberships.merchantId, merchantId), eq(memberships.role, "owner")));
  return row?.n ?? 0;
}

/** Owners only make or unmake owners (`team.ownership`); admins cannot touch an owner at all. */
function checkOwnership(rules: TeamRules, actorRole: MemberRole, targetRole: MemberRole, newRole: MemberRole | null) {
  const touchesOwner = targetRole === "owner" || newRole === "owner";
  if (touchesOwner && !rules.holds(actorRole, "team.ownership")) {
    throw new ServiceError("forbidden", "Only an owner may make or unmake owners. Your role may not do this: it needs the team.ownership permission.", {
      members: { permission: "team.ownership" },
    });
  }
}

const RANK: Record<MemberRole, number> = { owner: 4, admin: 3, developer: 2, support: 2, viewer: 1 };

/**
 * Changes a member's role (`team.write`; owners only to or from `owner`). The last owner cannot be demoted; a
 * member cannot raise their own role. The person's sessions see the new role at their next request in this
 * process (the adapter forgets them) and in every other within the session cache's TTL. Audited.
 */
export async function changeMemberRole({ ctx, input, rules }: { ctx: ServiceContext; input: { userId: string; role: MemberRole }; rules: TeamRules }) {
  const { userId, role } = validateInput(changeRoleInput, input);
  return changeTeam(ctx, userId, async ({ tx, merchantId, actorUserId, actorRole, targetRole }) => {
    if (!targetRole) throw new NotFoundError("member");
    if (!rules.holds(actorRole, "team.write")) {
      throw new ServiceError("forbidden", "Your role may not do this: it needs the team.write permission.", { members: { permission: "team.write" } });
    }
    checkOwnership(rules, actorRole, targetRole, role);
    if (userId === actorUserId && RANK[role] > RANK[targetRole]) throw new ServiceError("forbidden", "You cannot raise your own role.");
    if (targetRole === role) return { userId, role };
    if (targetRole === "owner" && (await ownerCount(tx, merchantId)) <= 1) {
      throw new ServiceError("last_owner", "The team's last owner cannot be demoted. Make another member an owner first.");
    }
    await tx.update(memberships).set({ role, updatedAt: ctx.now() }).where(and(eq(memberships.merchantId, merchantId), eq(memberships.userId, userId)));
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: { action: "team.role_changed", targetType: "user", targetId: userId, merchantId, details: { from: targetRole, to: role } },
    });
    return { userId, role };
  });
}

/**
 * Removes a member (`team.write`; an owner only by an owner), or the signed-in member themself (leaving: any
 * role). The last owner can neither leave nor be removed. Their sessions acting for this merchant end at once
 * (the adapter forgets them in this process; every other process sees the revoked row within the cache's TTL).
 * Audited.
 */
export async function removeMember({ ctx, input, rules }: { ctx: ServiceContext; input: { userId: string }; rules: TeamRules }) {
  const { userId } = validateInput(removeMemberInput, input);
  return changeTeam(ctx, userId, async ({ tx, merchantId, actorUserId, actorRole, targetRole }) => {
    if (!targetRole) throw new NotFoundError("member");
    const leaving = userId === actorUserId;
    if (!leaving) {
      if (!rules.holds(actorRole, "team.write")) {
        throw new ServiceError("forbidden", "Your role may not do this: it needs the team.write permission.", { members: { permission: "team.write" } });
      }
      checkOwnership(rules, actorRole, targetRole, null);
    }
    if (targetRole === "owner" && (await ownerCount(tx, merchantId)) <= 1) {
      throw new ServiceError("last_owner", "The team's last owner can neither leave nor be removed. Make another member an owner first.");
    }
    await tx.delete(memberships).where(and(eq(memberships.merchantId, merchantId), eq(memberships.userId, userId)));
    const ended = await tx
      .update(sessions)
      .set({ revokedAt: ctx.now(), revokeReason: "removed_from_team" })
      .where(and(eq(sessions.userId, userId), eq(sessions.merchantId, merchantId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    await repointHome(tx, userId, merchantId);
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: { action: leaving ? "team.member_left" : "team.member_removed", targetType: "user", targetId: userId, merchantId, details: { role: targetRole } },
    });
    return { userId, sessionsEnded: ended.map((session) => session.id) };
  });
}

/** A removed person whose sign-in started in this merchant starts in another of theirs, if any, from now on. */
async function repointHome(tx: Executor, userId: string, removedFrom: string) {
  const [other] = await tx
    .select({ merchantId: memberships.merchantId })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), ne(memberships.merchantId, removedFrom)))
    .orderBy(asc(memberships.createdAt))
    .limit(1);
  if (other) await tx.update(users).set({ merchantId: other.merchantId }).where(and(eq(users.id, userId), eq(users.merchantId, removedFrom)));
}
