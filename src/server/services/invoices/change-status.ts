import { and, eq } from "drizzle-orm";
import { invoices, type InvoiceRow, type InvoiceStatusDetail } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { inTransaction, type MerchantScope, type ServiceContext } from "../context";
import { NotFoundError, ServiceError } from "../errors";
import { emitInvoiceEvent } from "./emit";
import { expireIfDue } from "./expire-locked";
import { findInvoice } from "./fetch";

export type ManualChange = "void" | "paid";

/**
 * Voids an invoice, or (staff only) marks it paid, under its row lock with the event in the same transaction.
 * Void only from `open` or `expired`; marking paid from anything but `paid` and `void`. `afterChange` runs in
 * the transaction too (the staff verbs write their audit row there).
 */
export async function changeInvoiceStatus(
  ctx: ServiceContext,
  scope: MerchantScope,
  invoiceId: string,
  change: { to: ManualChange; statusDetail: InvoiceStatusDetail | null },
  afterChange?: (txCtx: ServiceContext, before: InvoiceRow, after: InvoiceRow) => Promise<void>,
): Promise<InvoiceRow> {
  return withTransaction(ctx.db, async (tx) => {
    const txCtx = inTransaction(ctx, tx);
    const locked = await findInvoice(tx, scope, invoiceId, { forUpdate: true });
    if (!locked) throw new NotFoundError("invoice");
    const row = await expireIfDue(txCtx, locked);
    const allowed = change.to === "void" ? row.status === "open" || row.status === "expired" : row.status !== "paid" && row.status !== "void";
    if (!allowed) throw new ServiceError("invalid_transition", `A ${row.status} invoice cannot become ${change.to}.`);

    const now = ctx.now();
    const [updated] = await tx
      .update(invoices)
      .set(
        change.to === "void"
          ? { status: "void", statusDetail: change.statusDetail, voidedAt: now, updatedAt: now }
          : { status: "paid", statusDetail: change.statusDetail, paidAt: now, updatedAt: now },
      )
      .where(and(eq(invoices.id, row.id), eq(invoices.merchantId, scope.merchantId)))
      .returning();
    await emitInvoiceEvent(txCtx, change.to === "void" ? "invoice.voided" : "invoice.paid", updated!);
    await afterChange?.(txCtx, row, updated!);
    return updated!;
  });
}
