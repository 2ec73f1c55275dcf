import { and, asc, eq, isNull } from "drizzle-orm";
import type { MemberRole } from "@/lib/roles";
import { memberships, merchants, sessions, users } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { requireSelf, type ServiceContext } from "../context";
import { NotFoundError, ServiceError } from "../errors";
import { validateInput } from "../validate";
import { switchMerchantInput } from "./schemas";

/** The merchants the signed-in person belongs to, with their role in each: the switcher's choices. */
export async function listOwnMemberships({ ctx }: { ctx: ServiceContext }): Promise<{ merchantId: string; name: string; role: MemberRole }[]> {
  const { userId } = requireSelf(ctx);
  return ctx.db
    .select({ merchantId: memberships.merchantId, name: merchants.name, role: memberships.role })
    .from(memberships)
    .innerJoin(merchants, eq(merchants.id, memberships.merchantId))
    .where(and(eq(memberships.userId, userId), eq(merchants.status, "active")))
    .orderBy(asc(memberships.createdAt));
}

/**
 * The switcher: the session asking acts for another merchant the person is a member of (an active one) from its
 * next request on, with their role there; their next sign-in starts there too. Another merchant's id, or one they
 * do not belong to, is not found. The adapter forgets the session in this process so the switch is seen at once.
 */
export async function switchMerchant({ ctx, input }: { ctx: ServiceContext; input: { merchantId: string } }) {
  const { userId, sessionId } = requireSelf(ctx);
  if (ctx.actor.type !== "user" || !sessionId) throw new ServiceError("forbidden", "Only a merchant's member switches merchants, in a dashboard session.");
  const { merchantId } = validateInput(switchMerchantInput, input);
  return withTransaction(ctx.db, async (tx) => {
    const [membership] = await tx
      .select({ role: memberships.role })
      .from(memberships)
      .innerJoin(merchants, eq(merchants.id, memberships.merchantId))
      .where(and(eq(memberships.merchantId, merchantId), eq(memberships.userId, userId), eq(merchants.status, "active")))
      .limit(1);
    if (!membership) throw new NotFoundError("merchant");
    await tx.update(sessions).set({ merchantId }).where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    await tx.update(users).set({ merchantId }).where(eq(users.id, userId));
    return { merchantId, role: membership.role, sessionId };
  });
}
