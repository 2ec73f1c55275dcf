import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { sessions } from "@/server/db/schema";
import { requireSelf, type ServiceContext } from "../context";

/**
 * The signed-in user's live sessions, most recently used first: device (the browser's User-Agent at sign-in), IP,
 * when it started and was last used (to the minute: touch.ts), and which one is asking (`current`).
 */
export async function listOwnSessions({ ctx }: { ctx: ServiceContext }) {
  const { userId, sessionId } = requireSelf(ctx);
  const rows = await ctx.db
    .select({ id: sessions.id, userAgent: sessions.userAgent, ip: sessions.ip, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, ctx.now())))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.id));
  return rows.map((row) => ({ ...row, current: row.id === sessionId }));
}
