import { requireMerchantScope, requireStaff, type ServiceContext } from "../context";
import { recordAudit } from "../audit/record";
import { validateInput } from "../validate";
import { changeInvoiceStatus, type ManualChange } from "./change-status";
import { staffInvoiceActionInput, toInvoice, type Invoice } from "./schemas";

/**
 * Support staff mark a merchant's invoice paid (settled outside the service) or void it, with a reason:
 * `statusDetail: "marked"`, the usual `invoice.paid`/`invoice.voided` event, and an audit row with the reason,
 * all in one transaction. `ctx` acts for the invoice's merchant (tRPC `forMerchant`).
 */
export async function markInvoiceAsStaff({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { invoiceId: string; reason: string; to: ManualChange };
}): Promise<Invoice> {
  requireStaff(ctx);
  const scope = requireMerchantScope(ctx);
  const { merchantId } = scope;
  const { invoiceId, reason } = validateInput(staffInvoiceActionInput.omit({ merchantId: true }), { invoiceId: input.invoiceId, reason: input.reason });
  const row = await changeInvoiceStatus(ctx, scope, invoiceId, { to: input.to, statusDetail: "marked" }, (txCtx, before) =>
    recordAudit({
      ctx: txCtx,
      input: {
        action: input.to === "paid" ? "invoice.marked_paid" : "invoice.marked_void",
        targetType: "invoice",
        targetId: invoiceId,
        merchantId,
        details: { reason, previousStatus: before.status },
      },
    }),
  );
  return toInvoice(row, ctx.env.PUBLIC_BASE_URL);
}
