import { sql } from "drizzle-orm";
import { currencyExponent } from "@/lib/currencies";
import { newId } from "@/lib/ids";
import { canonicalAmount } from "@/lib/money";
import { invoices } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { inTransaction, livemodeOf, requireMerchantWriter, type ServiceContext } from "../context";
import { ServiceError, ValidationError } from "../errors";
import { validateInput } from "../validate";
import { emitInvoiceEvent } from "./emit";
import { createInvoiceInput, toInvoice, type CreateInvoiceInput, type Invoice } from "./schemas";

/**
 * Creates an open invoice and its `invoice.created` event in one transaction. `orderId` is unique among the
 * merchant's invoices of the mode that are not void: the partial unique index decides races, and ON CONFLICT DO NOTHING
 * turns the loser into 409 order_id_taken without aborting the transaction (the idempotency record shares it).
 */
export async function createInvoice({ ctx, input }: { ctx: ServiceContext; input: CreateInvoiceInput }): Promise<Invoice> {
  const merchantId = requireMerchantWriter(ctx);
  const data = validateInput(createInvoiceInput, input, "body");
  const checked = canonicalAmount(data.amount, currencyExponent(data.currency) ?? 0);
  if (!checked.ok) throw new ValidationError([{ path: "body.amount", message: checked.message }]);
  const now = ctx.now();

  return withTransaction(ctx.db, async (tx) => {
    const [row] = await tx
      .insert(invoices)
      .values({
        id: newId("invoice"),
        merchantId,
        livemode: livemodeOf(ctx),
        orderId: data.orderId ?? null,
        amount: checked.amount,
        currency: data.currency,
        status: "open",
        description: data.description ?? null,
        metadata: data.metadata ?? {},
        returnUrl: data.returnUrl ?? null,
        expiresAt: new Date(now.getTime() + data.expiresIn * 1000),
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({
        target: [invoices.merchantId, invoices.livemode, invoices.orderId],
        // The index's own predicate, so PostgreSQL infers the partial index as the arbiter.
        where: sql.raw(`order_id is not null and status <> 'void'`),
      })
      .returning();
    if (!row) throw new ServiceError("order_id_taken", `An invoice for order ${data.orderId} already exists; void it before creating another.`);
    await emitInvoiceEvent(inTransaction(ctx, tx), "invoice.created", row);
    return toInvoice(row, ctx.env.PUBLIC_BASE_URL);
  });
}
