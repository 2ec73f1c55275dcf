import type { Actor } from "@/server/services/context";
import type { SessionUser } from "@/server/services/users/session-user";
import { may } from "./permissions";
import { merchantSideOf } from "./view-as";

/**
 * Who acts in a dashboard reconciliation request outside tRPC (upload, export): a merchant's member for the
 * merchant their session acts for, in the dashboard switch's mode (`livemode`), or a staff session viewing a merchant
 * (read-only: auth/view-as.ts), or support staff (live) for the merchant named in `?merchantId=`. Null when none;
 * "forbidden" when the role may not (`reconciliation.<need>`, or staff's `staff.reconciliation.<need>`).
 */
export function reconciliationActor(
  user: SessionUser | null,
  requestedMerchantId: string | null,
  livemode: boolean,
  need: "read" | "write",
  now: Date = new Date(),
): Actor | "forbidden" | null {
  const side = merchantSideOf(user, now, livemode);
  if (side) return side.may(`reconciliation.${need}`) ? side.actor : "forbidden";
  if (user?.role === "staff" && requestedMerchantId && requestedMerchantId.length <= 100) {
    if (!may(user.access, `staff.reconciliation.${need}`, true)) return "forbidden";
    return { type: "staff", userId: user.id, merchantId: requestedMerchantId };
  }
  return null;
}
