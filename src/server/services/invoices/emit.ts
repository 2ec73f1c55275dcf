import type { EventType, InvoiceRow } from "@/server/db/schema";
import { observeInvoiceTransition } from "@/server/metrics/observe";
import type { ServiceContext } from "../context";
import { emitEvent } from "../events/emit";
import { toInvoice } from "./schemas";

type InvoiceEventType = Extract<EventType, `invoice.${string}`>;

/**
 * Emits an `invoice.*` event whose `data` is the invoice as it now is, in the invoice's mode; call it inside the
 * change's transaction.
 */
export function emitInvoiceEvent(ctx: ServiceContext, type: InvoiceEventType, row: InvoiceRow) {
  // Every status change emits its event here (a payment received without one does not change the status).
  if (type !== "invoice.payment_received") observeInvoiceTransition(row.status);
  return emitEvent({ ctx, input: { type, data: toInvoice(row, ctx.env.PUBLIC_BASE_URL), subjectId: row.id, livemode: row.livemode } });
}
