import { and, inArray, lte, sql } from "drizzle-orm";
import { invoices, type InvoiceStatus } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { inTransaction, type ServiceContext } from "../context";
import { emitInvoiceEvent } from "./emit";

const WAITING: InvoiceStatus[] = ["open", "processing"];

export const EXPIRE_BATCH = 100;

/**
 * The expiry sweep (docs/invoices.md): expires up to `limit` due invoices of every merchant and emits their
 * `invoice.expired` events, in one transaction. The due rows are locked with SKIP LOCKED, so any number of
 * sweepers share the work without waiting on each other (or on a confirm holding an invoice: that confirm
 * expires it itself, expire-locked.ts), and the UPDATE re-checks the status under the lock, so each invoice
 * expires exactly once. Returns how many expired; a full batch means there may be more.
 */
export async function expireDueInvoices({ ctx, input }: { ctx: ServiceContext; input: { limit?: number } }): Promise<number> {
  if (ctx.actor.type !== "system") throw new Error("the expiry sweep runs as the system");
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const due = tx
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(inArray(invoices.status, WAITING), lte(invoices.expiresAt, now)))
      .orderBy(invoices.expiresAt)
      .limit(input.limit ?? EXPIRE_BATCH)
      .for("update", { skipLocked: true });
    const expired = await tx
      .update(invoices)
      .set({
        status: "expired",
        statusDetail: sql`case when ${invoices.amountPaid} > 0 then 'partially_paid' else null end`,
        // As status.ts expiredFields: the invoice changed at expiresAt, however late the sweep writes it.
        expiredAt: sql`${invoices.expiresAt}`,
        updatedAt: sql`${invoices.expiresAt}`,
      })
      .where(and(inArray(invoices.id, due), inArray(invoices.status, WAITING)))
      .returning();
    for (const row of expired) {
      // Each event belongs to its invoice's merchant and mode (the outbox reads that merchant's endpoints of the mode).
      const merchantCtx = inTransaction({ ...ctx, actor: { type: "system", merchantId: row.merchantId, livemode: row.livemode } }, tx);
      await emitInvoiceEvent(merchantCtx, "invoice.expired", row);
    }
    return expired.length;
  });
}
