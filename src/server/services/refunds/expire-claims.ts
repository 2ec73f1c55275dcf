import { and, eq, inArray, lte } from "drizzle-orm";
import { refunds } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { inTransaction, type ServiceContext } from "../context";
import { emitRefundEvent } from "./move";

export const CLAIM_EXPIRE_BATCH = 100;

/**
 * The claim expiry sweep (docs/refunds.md, "Claim link"): refunds whose claim link ran out unclaimed become
 * `canceled` with `failureReason: "claim_expired"` and send `refund.canceled`, up to `limit` a run. Due rows are
 * locked with SKIP LOCKED (several processes share the work; a claim holding a row settles it itself) and the UPDATE
 * re-checks the status, so each expires once. Only the refund's own row is locked: a canceled claim never changes a
 * payment's refunded amount, and taking no payment lock keeps clear of the lock order of fetch.ts.
 */
export async function expireRefundClaims({ ctx, input }: { ctx: ServiceContext; input: { limit?: number } }): Promise<number> {
  if (ctx.actor.type !== "system") throw new Error("the claim expiry sweep runs as the system");
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const due = tx
      .select({ id: refunds.id })
      .from(refunds)
      .where(and(eq(refunds.status, "requires_action"), lte(refunds.claimExpiresAt, now)))
      .orderBy(refunds.claimExpiresAt)
      .limit(input.limit ?? CLAIM_EXPIRE_BATCH)
      .for("update", { skipLocked: true });
    const expired = await tx
      .update(refunds)
      .set({ status: "canceled", failureReason: "claim_expired", canceledAt: now, updatedAt: now })
      .where(and(inArray(refunds.id, due), eq(refunds.status, "requires_action")))
      .returning();
    for (const row of expired) {
      const merchantCtx = inTransaction({ ...ctx, actor: { type: "system", merchantId: row.merchantId, livemode: row.livemode } }, tx);
      await emitRefundEvent(merchantCtx, "refund.canceled", row);
    }
    return expired.length;
  });
}
