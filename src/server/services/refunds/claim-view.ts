import { eq } from "drizzle-orm";
import { isFiatCurrency } from "@/lib/currencies";
import { merchants, type RefundRow } from "@/server/db/schema";
import type { ServiceContext } from "../context";
import { refundOfClaimToken } from "./fetch";

/** Crypto refunds need the network the payer's address lives on; a bank or card refund does not. */
export function isCryptoClaim(currency: string): boolean {
  return !isFiatCurrency(currency);
}

/** What the public claim page shows (docs/refunds.md, "Claim link"), and nothing else of the merchant. */
export interface RefundClaimView {
  merchantName: string;
  amount: string;
  currency: string;
  instructions: string | null;
  status: "open" | "claimed" | "sent" | "failed" | "expired";
  needsNetwork: boolean;
  destination: string | null;
  expiresAt: string | null;
}

export async function getRefundClaim({ ctx, input }: { ctx: ServiceContext; input: { token: string } }): Promise<RefundClaimView> {
  const refund = await refundOfClaimToken(ctx, input.token);
  const [merchant] = await ctx.db.select({ name: merchants.name }).from(merchants).where(eq(merchants.id, refund.merchantId)).limit(1);
  return {
    merchantName: merchant?.name ?? "",
    amount: refund.amount,
    currency: refund.currency,
    instructions: refund.claimInstructions,
    status: claimStatusOf(refund, ctx.now()),
    needsNetwork: isCryptoClaim(refund.currency),
    destination: refund.destination,
    expiresAt: refund.claimExpiresAt?.toISOString() ?? null,
  };
}

/** The refund's status in the payer's words; a claim past its time reads as expired before the sweep gets to it. */
export function claimStatusOf(refund: RefundRow, now: Date): RefundClaimView["status"] {
  switch (refund.status) {
    case "requires_action":
      return refund.claimExpiresAt !== null && refund.claimExpiresAt <= now ? "expired" : "open";
    case "pending":
      return "claimed";
    case "succeeded":
      return "sent";
    case "failed":
      return "failed";
    default:
      return "expired";
  }
}
