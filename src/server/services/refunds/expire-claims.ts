import { and, eq, lte } from "drizzle-orm";
import { refunds, type RefundRow } from "@/server/db/schema";
import type { ServiceContext } from "../context";
import { moveLockedRefund } from "./move";
import { withLockedRefund } from "./update";

export const CLAIM_EXPIRE_BATCH = 100;

/**
 * The claim expiry sweep (docs/refunds.md, "Claim link"): refunds whose claim link ran out unclaimed become
 * `canceled` with `failureReason: "claim_expired"` and send `refund.canceled`, up to `limit` a run. Each in its own
 * transaction under its payment's lock and then its own (fetch.ts, the lock order every refund move keeps): the
 * cancel gives its amount back to the payment (held.ts). The status and expiry are checked again under the locks, so
 * a refund claimed meanwhile stays claimed, and sweeps of several processes expire each refund once.
 */
export async function expireRefundClaims({ ctx, input }: { ctx: ServiceContext; input: { limit?: number } }): Promise<number> {
  if (ctx.actor.type !== "system") throw new Error("the claim expiry sweep runs as the system");
  const now = ctx.now();
  const due = await ctx.db
    .select({ id: refunds.id, merchantId: refunds.merchantId, livemode: refunds.livemode })
    .from(refunds)
    .where(and(eq(refunds.status, "requires_action"), lte(refunds.claimExpiresAt, now)))
    .orderBy(refunds.claimExpiresAt)
    .limit(input.limit ?? CLAIM_EXPIRE_BATCH);
  let expired = 0;
  for (const { id, merchantId, livemode } of due) {
    const scope = { merchantId, livemode };
    // The event belongs to the refund's merchant and mode.
    const merchantCtx: ServiceContext = { ...ctx, actor: { type: "system", ...scope } };
    let changed = false;
    await withLockedRefund(merchantCtx, scope, id, async (txCtx, payment, refund): Promise<RefundRow> => {
      if (refund.status !== "requires_action" || refund.claimExpiresAt === null || refund.claimExpiresAt > now) return refund;
      const moved = await moveLockedRefund(txCtx, payment, refund, "canceled", { fields: { failureReason: "claim_expired" } });
      changed = moved.changed;
      return moved.refund;
    });
    if (changed) expired++;
  }
  return expired;
}
