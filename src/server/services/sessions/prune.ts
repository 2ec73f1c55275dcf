import { inArray, lt, or } from "drizzle-orm";
import { authChallenges, passwordResets, sessions } from "@/server/db/schema";
import type { ServiceContext } from "../context";

/** Rows deleted per table per run: small statements that never hold locks for long. */
export const SIGN_IN_PRUNE_BATCH = 500;

/** Ended sessions stay this long after they expire or are revoked (the user's list shows only live ones). */
export const SESSION_KEEP_MS = 30 * 24 * 3_600_000;
/** Spent or expired sign-in challenges and reset links are kept a day, for looking into a report. */
export const ONE_TIME_KEEP_MS = 24 * 3_600_000;

/**
 * Deletes up to `batchSize` rows of each: sessions expired or revoked more than 30 days ago, and sign-in
 * challenges and password reset links expired more than a day ago. Idempotent (a row deleted twice is deleted
 * once), so several processes may run it. Resolves with the most rows deleted from one table, which the
 * scheduler reads as "the batch was full, run again".
 */
export async function pruneSignInRecords({ ctx, input }: { ctx: ServiceContext; input: { batchSize: number } }): Promise<number> {
  const now = ctx.now().getTime();
  const sessionsBefore = new Date(now - SESSION_KEEP_MS);
  const oneTimeBefore = new Date(now - ONE_TIME_KEEP_MS);
  const oldSessions = ctx.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(or(lt(sessions.expiresAt, sessionsBefore), lt(sessions.revokedAt, sessionsBefore)))
    .limit(input.batchSize);
  const oldChallenges = ctx.db.select({ id: authChallenges.id }).from(authChallenges).where(lt(authChallenges.expiresAt, oneTimeBefore)).limit(input.batchSize);
  const oldResets = ctx.db.select({ id: passwordResets.id }).from(passwordResets).where(lt(passwordResets.expiresAt, oneTimeBefore)).limit(input.batchSize);
  const deleted = await Promise.all([
    ctx.db.delete(sessions).where(inArray(sessions.id, oldSessions)).returning({ id: sessions.id }),
    ctx.db.delete(authChallenges).where(inArray(authChallenges.id, oldChallenges)).returning({ id: authChallenges.id }),
    ctx.db.delete(passwordResets).where(inArray(passwordResets.id, oldResets)).returning({ id: passwordResets.id }),
  ]);
  return Math.max(...deleted.map((rows) => rows.length));
}
