import { and, eq } from "drizzle-orm";
import { isId } from "@/lib/ids";
import { payments, refunds, type PaymentRow, type RefundRow } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import { looksLikeRefundClaimToken, refundClaimTokenDigest } from "@/server/crypto/refund-claim-token";
import type { MerchantScope, ServiceContext } from "../context";
import { NotFoundError } from "../errors";

/*
 * Lock order, everywhere a refund changes (docs/refunds.md, "Never more than was paid"): the payment's row, then
 * the refund's, then the invoice's. payment/confirm takes payment then invoice, so no two writers wait on each other
 * in a cycle.
 */

/** The merchant's payment in this mode, locked for update; undefined for an unknown, malformed or foreign id. */
export async function lockPayment(db: Executor, { merchantId, livemode }: MerchantScope, id: string): Promise<PaymentRow | undefined> {
  if (!isId("payment", id)) return undefined;
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.id, id), eq(payments.merchantId, merchantId), eq(payments.livemode, livemode)))
    .for("update");
  return row;
}

/** The merchant's refund in this mode, locked when `forUpdate` (after its payment's lock). */
export async function findRefund(
  db: Executor,
  { merchantId, livemode }: MerchantScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<RefundRow | undefined> {
  if (!isId("refund", id)) return undefined;
  const query = db
    .select()
    .from(refunds)
    .where(and(eq(refunds.merchantId, merchantId), eq(refunds.id, id), eq(refunds.livemode, livemode)));
  const [row] = options.forUpdate ? await query.for("update") : await query;
  return row;
}

/** The merchant's refund with this processor id in this mode, locked (its payment's lock is already held). */
export async function lockRefundByExternalId(db: Executor, { merchantId, livemode }: MerchantScope, externalId: string): Promise<RefundRow | undefined> {
  const [row] = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.merchantId, merchantId), eq(refunds.livemode, livemode), eq(refunds.externalId, externalId)))
    .for("update");
  return row;
}

/** The refund a claim link's token names (any merchant: the token is the capability), or 404. */
export async function refundOfClaimToken(ctx: ServiceContext, token: string): Promise<RefundRow> {
  if (!looksLikeRefundClaimToken(token)) throw new NotFoundError("refund claim");
  const [row] = await ctx.db.select().from(refunds).where(eq(refunds.claimTokenHash, refundClaimTokenDigest(token))).limit(1);
  if (!row) throw new NotFoundError("refund claim");
  return row;
}

