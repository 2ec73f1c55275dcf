import type { EventType } from "@/lib/event-types";
import type { RefundRow, RefundStatus } from "@/server/db/schema";

/**
 * The refund state machine (docs/refunds.md, "States"): `requires_action → pending → succeeded | failed`,
 * `requires_action | pending → canceled`. Anything else is 409 invalid_transition.
 */
const NEXT: Record<RefundStatus, readonly RefundStatus[]> = {
  requires_action: ["pending", "canceled"],
  pending: ["succeeded", "failed", "canceled"],
  succeeded: [],
  failed: [],
  canceled: [],
};

export function canMove(from: RefundStatus, to: RefundStatus): boolean {
  return NEXT[from].includes(to);
}

/** The columns a move to `status` sets besides the status itself. */
export function statusFields(status: RefundStatus, now: Date): Partial<RefundRow> {
  if (status === "succeeded") return { succeededAt: now };
  if (status === "failed") return { failedAt: now };
  if (status === "canceled") return { canceledAt: now };
  return {};
}

/**
 * The event a refund arriving in `status` sends. `pending` is news only when the payer claimed it (`refund.claimed`,
 * sent by the claim itself); the merchant's own move from `requires_action` to `pending` sends none.
 */
export function eventOfStatus(status: RefundStatus): EventType | null {
  if (status === "succeeded") return "refund.succeeded";
  if (status === "failed") return "refund.failed";
  if (status === "canceled") return "refund.canceled";
  return null;
}
