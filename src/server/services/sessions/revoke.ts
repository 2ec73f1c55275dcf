import { and, eq, isNull } from "drizzle-orm";
import { sessions, type SessionRevokeReason } from "@/server/db/schema";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";

/**
 * Ends one of the acting user's own sessions (signing out; round 3: "sign out this device"). Another user's
 * session id changes nothing. Returns whether a live session was ended.
 */
export async function revokeSession({ ctx, input }: { ctx: ServiceContext; input: { id: string; reason: SessionRevokeReason } }) {
  const { actor } = ctx;
  if (actor.type !== "user" && actor.type !== "staff") throw new ServiceError("unauthenticated", "Sign in first.");
  const ended = await ctx.db
    .update(sessions)
    .set({ revokedAt: ctx.now(), revokeReason: input.reason })
    .where(and(eq(sessions.id, input.id), eq(sessions.userId, actor.userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return { revoked: ended.length > 0 };
}
