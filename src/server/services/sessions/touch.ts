import { and, eq, isNull, lt } from "drizzle-orm";
import { sessions } from "@/server/db/schema";
import type { ServiceContext } from "../context";
import { TOUCH_INTERVAL_MS } from "./schemas";

/** Records that a live session was used now, unless that was already recorded within the last minute. */
export async function touchSession({ ctx, input }: { ctx: ServiceContext; input: { id: string } }): Promise<void> {
  const now = ctx.now();
  await ctx.db
    .update(sessions)
    .set({ lastSeenAt: now })
    .where(and(eq(sessions.id, input.id), isNull(sessions.revokedAt), lt(sessions.lastSeenAt, new Date(now.getTime() - TOUCH_INTERVAL_MS))));
}
