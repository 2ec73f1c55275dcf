import type { Actor } from "@/server/services/context";
import type { SessionUser } from "@/server/services/users/session-user";
import { may } from "./permissions";

/**
 * Who acts in a dashboard reconciliation request outside tRPC (upload, export): a merchant's member for the
 * merchant their session acts for, in the dashboard switch's mode (`livemode`), or support staff (live) for the
 * merchant named in `?merchantId=`. Null when neither; "forbidden" when the role may not (`reconciliation.<need>`,
 * or staff's `staff.reconciliation.<need>`).
 */
export function reconciliationActor(user: SessionUser | null, requestedMerchantId: string | null, livemode: boolean, need: "read" | "write"): Actor | "forbidden" | null {
  if (user?.role === "merchant" && user.merchantId) {
    if (!may(user.access, `reconciliation.${need}`, livemode)) return "forbidden";
    return { type: "user", userId: user.id, merchantId: user.merchantId, livemode };
  }
  if (user?.role === "staff" && requestedMerchantId && requestedMerchantId.length <= 100) {
    if (!may(user.access, `staff.reconciliation.${need}`, true)) return "forbidden";
    return { type: "staff", userId: user.id, merchantId: requestedMerchantId };
  }
  return null;
}
