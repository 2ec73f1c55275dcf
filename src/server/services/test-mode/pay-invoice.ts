import { z } from "zod";
import { newId } from "@/lib/ids";
import { compareDecimals } from "@/lib/money";
import { paymentStatuses } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { inTransaction, livemodeOf, requireMerchantScope, type ServiceContext } from "../context";
import { NotFoundError, ServiceError } from "../errors";
import { findInvoice } from "../invoices/fetch";
import { getInvoice } from "../invoices/get";
import { invoiceIdInput, invoiceWithPaymentsSchema, toInvoice } from "../invoices/schemas";
import { effectiveInvoice } from "../invoices/status";
import { confirmPayment } from "../payments/confirm";
import { paymentSchema } from "../payments/schemas";
import { validateInput } from "../validate";

export const payTestInvoiceInput = z.strictObject({
  amount: z
    .string()
    .max(64)
    .optional()
    .describe("Decimal string in the invoice's currency; default what is still owed (the whole amount once nothing is)."),
  status: z.enum(paymentStatuses).default("confirmed").describe("The simulated payment's status: `pending` first, then confirm it with `POST /payment/confirm`."),
});
export type PayTestInvoiceInput = z.input<typeof payTestInvoiceInput>;

// Described here, not on the fields: a described Payment or Invoice would be a copy in the OpenAPI document
// rather than a reference to its component.
export const payTestInvoiceResult = z
  .object({ payment: paymentSchema, invoice: invoiceWithPaymentsSchema })
  .describe(
    "`payment` is the simulated payment (`method: \"test\"`, `metadata.simulated: true`; confirm or fail it later by its " +
      "`externalId`); `invoice` is the invoice after the payment.",
  )
  .meta({ id: "TestInvoicePayment" });

/** The prefix of a simulated payment's `externalId`, so it never collides with the merchant's own ids. */
export const SIMULATED_EXTERNAL_ID_PREFIX = "sim_";

/**
 * Simulates a customer paying a test invoice (docs/test-mode.md): records a test payment attached to it through
 * the one confirm path (payments/confirm.ts), so the invoice's amounts and status move and its `payment.*` and
 * `invoice.*` events (and webhooks to test endpoints) are those a real payment makes. Test mode only: a live
 * caller gets 403 `test_mode_only` before anything is read, so a live key learns nothing about any id.
 */
export async function payTestInvoice({ ctx, input }: { ctx: ServiceContext; input: PayTestInvoiceInput & { id: string } }) {
  if (livemodeOf(ctx)) throw new ServiceError("test_mode_only", "Simulated payments need an sk_test_ key; live money is never made up.");
  const scope = requireMerchantScope(ctx);
  const { id } = validateInput(invoiceIdInput, { id: input.id }, "params");
  const data = validateInput(payTestInvoiceInput, { amount: input.amount, status: input.status }, "body");
  return withTransaction(ctx.db, async (tx) => {
    const txCtx = inTransaction(ctx, tx);
    const row = await findInvoice(tx, scope, id);
    if (!row) throw new NotFoundError("invoice");
    const shown = toInvoice(effectiveInvoice(row, ctx.now()), ctx.env.PUBLIC_BASE_URL);
    const amount = data.amount ?? (compareDecimals(shown.amountRemaining, "0") > 0 ? shown.amountRemaining : shown.amount);
    const { payment } = await confirmPayment({
      ctx: txCtx,
      input: {
        externalId: `${SIMULATED_EXTERNAL_ID_PREFIX}${newId("payment").slice("pay_".length)}`,
        amount,
        currency: row.currency,
        status: data.status,
        invoiceId: row.id,
        method: "test",
        metadata: { simulated: true },
      },
    });
    return { payment, invoice: await getInvoice({ ctx: txCtx, input: { id: row.id } }) };
  });
}
