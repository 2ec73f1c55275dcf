import { lte, sql } from "drizzle-orm";
import { idempotencyKeys } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";

/** Keys deleted per statement: a short delete, repeated by the background job while batches come back full. */
export const PURGE_BATCH = 500;

/**
 * Deletes up to `limit` expired keys; returns how many. Expired keys are already ignored (and overwritten on
 * reuse): this only keeps the table small. A background job (background/jobs.ts) runs it.
 */
export async function purgeExpiredIdempotencyKeys(db: Executor, now: Date, limit = PURGE_BATCH): Promise<number> {
  const expired = db.select({ ctid: sql`ctid` }).from(idempotencyKeys).where(lte(idempotencyKeys.expiresAt, now)).limit(limit);
  const deleted = await db.delete(idempotencyKeys).where(sql`ctid in ${expired}`).returning({ key: idempotencyKeys.key });
  return deleted.length;
}
