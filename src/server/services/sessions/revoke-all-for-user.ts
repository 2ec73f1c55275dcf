import { and, eq, isNull, ne } from "drizzle-orm";
import { sessions, type SessionRevokeReason } from "@/server/db/schema";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";

/**
 * Ends every live session of a user, but `keepSessionId` (the one that asked, when it asked for itself: a
 * password change keeps its own tab signed in). Used inside the verb that is the reason (changePassword; round
 * 3: "sign out other sessions", a password reset, removal from a merchant), in its transaction. The user
 * themself or the system may do it; round 3 adds an owner removing a member here.
 */
export async function revokeAllSessionsOfUser({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; reason: SessionRevokeReason; keepSessionId?: string };
}) {
  const { actor } = ctx;
  const self = (actor.type === "user" || actor.type === "staff") && actor.userId === input.userId;
  if (!self && actor.type !== "system") throw new ServiceError("forbidden", "Only the user may end their sessions.");
  const ended = await ctx.db
    .update(sessions)
    .set({ revokedAt: ctx.now(), revokeReason: input.reason })
    .where(
      and(
        eq(sessions.userId, input.userId),
        isNull(sessions.revokedAt),
        input.keepSessionId ? ne(sessions.id, input.keepSessionId) : undefined,
      ),
    )
    .returning({ id: sessions.id });
  return { revoked: ended.length };
}
