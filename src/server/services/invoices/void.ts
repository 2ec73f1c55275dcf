import { livemodeOf, requireMerchantWriter, type ServiceContext } from "../context";
import { validateInput } from "../validate";
import { auditChanges } from "../audit/changes";
import { recordAudit } from "../audit/record";
import { changeInvoiceStatus } from "./change-status";
import { invoiceIdInput, toInvoice, type Invoice } from "./schemas";

/** Voids one of the merchant's invoices (from `open` or `expired`; else 409 invalid_transition) and emits `invoice.voided`. */
export async function voidInvoice({ ctx, input }: { ctx: ServiceContext; input: { id: string } }): Promise<Invoice> {
  const merchantId = requireMerchantWriter(ctx);
  const livemode = livemodeOf(ctx);
  const { id } = validateInput(invoiceIdInput, input, "params");
  const row = await changeInvoiceStatus(ctx, { merchantId, livemode }, id, { to: "void", statusDetail: null }, (txCtx, before, after) =>
    recordAudit({
      ctx: txCtx,
      input: { action: "invoice.voided", targetType: "invoice", targetId: after.id, merchantId, details: { livemode, ...auditChanges(before, after, ["status"]) } },
    }),
  );
  return toInvoice(row, ctx.env.PUBLIC_BASE_URL);
}
