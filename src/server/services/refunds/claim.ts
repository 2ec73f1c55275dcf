import type { RefundRow } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { isCryptoClaim } from "./claim-view";
import { inTransaction, type ServiceContext } from "../context";
import { NotFoundError, ServiceError, ValidationError } from "../errors";
import { validateInput } from "../validate";
import { findRefund, lockPayment, refundOfClaimToken } from "./fetch";
import { moveLockedRefund } from "./move";
import { claimRefundInput, toRefund, type ClaimRefundInput, type Refund } from "./schemas";

/**
 * The payer gives where the money goes (docs/refunds.md, "Claim link"): `requires_action → pending` with the
 * destination, and `refund.claimed` to the merchant, in one transaction under the payment's and refund's locks. A
 * second claim is 409 refund_already_claimed, a claim after expiry (or cancelation) 410 refund_claim_expired; both
 * change nothing.
 */
export async function claimRefund({ ctx, input }: { ctx: ServiceContext; input: ClaimRefundInput & { token: string } }): Promise<Refund> {
  const seen = await refundOfClaimToken(ctx, input.token);
  const data = validateInput(claimRefundInput, { destination: input.destination, network: input.network }, "body");
  if (isCryptoClaim(seen.currency) && !data.network) {
    throw new ValidationError([{ path: "body.network", message: `name the network of your ${seen.currency} address` }]);
  }
  const scope = { merchantId: seen.merchantId, livemode: seen.livemode };
  // The events belong to the refund's merchant and mode; the payer is no one we know.
  const merchantCtx: ServiceContext = { ...ctx, actor: { type: "system", ...scope } };
  return withTransaction(ctx.db, async (tx) => {
    const txCtx = inTransaction(merchantCtx, tx);
    const payment = await lockPayment(tx, scope, seen.paymentId);
    const refund = await findRefund(tx, scope, seen.id, { forUpdate: true });
    if (!payment || !refund) throw new NotFoundError("refund claim");
    assertClaimable(refund, txCtx.now());
    const { refund: claimed } = await moveLockedRefund(txCtx, payment, refund, "pending", {
      fields: { destination: data.destination, destinationNetwork: data.network ?? null, claimedAt: txCtx.now() },
      event: "refund.claimed",
    });
    return toRefund(claimed, ctx.env);
  });
}

export function assertClaimable(refund: RefundRow, now: Date): void {
  if (refund.status === "canceled" || (refund.status === "requires_action" && refund.claimExpiresAt !== null && refund.claimExpiresAt <= now)) {
    throw new ServiceError("refund_claim_expired", "This refund can no longer be claimed; nothing was changed. Ask the merchant for a new link.");
  }
  if (refund.status !== "requires_action") {
    throw new ServiceError("refund_already_claimed", "This refund was already claimed; nothing was changed.");
  }
}
