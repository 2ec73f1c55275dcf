import type { ServiceContext } from "../context";
import { AUDIT_WINDOW_MS, recordOnceAWindow } from "./record-once-a-window";

/** How long one audit row stands for a staff member's repeated looks at the same view of a merchant. */
export const STAFF_READ_AUDIT_WINDOW_MS = AUDIT_WINDOW_MS;

/** The views of one merchant's data that support staff open, each audited under its own action. */
export const STAFF_READ_ACTIONS = {
  merchant: "staff.merchant_viewed",
  payments: "staff.payments_viewed",
  paymentStats: "staff.payment_stats_viewed",
  failedDeliveries: "staff.failed_deliveries_viewed",
  delivery: "staff.delivery_viewed",
  reconciliations: "staff.reconciliations_viewed",
  invoices: "staff.invoices_viewed",
  invoice: "staff.invoice_viewed",
  events: "staff.events_viewed",
  event: "staff.event_viewed",
  deliveries: "staff.deliveries_viewed",
  refunds: "staff.refunds_viewed",
  /** One payment opened from the search (the search itself is `payment.searched`, logged on every search). */
  payment: "payment.viewed",
  /** The System page: every merchant's failing and slow endpoints at once (no one merchant: `merchant_id` null). */
  system: "staff.system_viewed",
} as const;
export type StaffView = keyof typeof STAFF_READ_ACTIONS;

/**
 * Audits support staff reading one merchant's data (docs/api-contract.md, "Who uses it": every staff action is logged), without
 * flooding the log as the dashboard refetches and pages: at most one row per staff user, merchant, view and
 * target (the merchant, or one delivery) within STAFF_READ_AUDIT_WINDOW_MS. Does nothing for any other
 * actor: a merchant reading its own data is no staff action. docs/dashboard.md, "Staff console".
 */
export async function recordStaffRead({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { view: StaffView; target?: { type: string; id: string } };
}): Promise<void> {
  const { actor } = ctx;
  if (actor.type !== "staff") return;
  const merchantId = actor.merchantId ?? null;
  // Only the System page reads across merchants; any other view is of one merchant.
  if (merchantId === null && input.view !== "system") return;
  const action = STAFF_READ_ACTIONS[input.view];
  const target = input.target ?? (merchantId ? { type: "merchant", id: merchantId } : { type: "system", id: "system" });
  await recordOnceAWindow(ctx, { action, targetType: target.type, targetId: target.id, merchantId, actorId: actor.userId }, "staff-read");
}
