import type { Actor } from "@/server/services/context";
import type { SessionUser } from "./session";

/**
 * Who acts in a dashboard reconciliation request outside tRPC (upload, export): a merchant's user for
 * their own merchant in the dashboard switch's mode (`livemode`), or support staff (live) for the merchant named in `?merchantId=`. Null when neither.
 */
export function reconciliationActor(user: SessionUser | null, requestedMerchantId: string | null, livemode = true): Actor | null {
  if (user?.role === "merchant" && user.merchantId) return { type: "user", userId: user.id, merchantId: user.merchantId, livemode };
  if (user?.role === "staff" && requestedMerchantId && requestedMerchantId.length <= 100) {
    return { type: "staff", userId: user.id, merchantId: requestedMerchantId };
  }
  return null;
}
