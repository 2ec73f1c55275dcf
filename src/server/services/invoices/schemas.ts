import { z } from "zod";
import { currencyExponent } from "@/lib/currencies";
import { isoInstantInput, startNotAfterEnd } from "@/lib/iso-input";
import { remainingDecimal, withDecimals } from "@/lib/money";
import { createSelectSchema } from "drizzle-zod";
import { invoices, invoiceStatuses, type InvoiceRow } from "@/server/db/schema";
import { httpUrl } from "../merchants/schemas";
import { listSchema, pageQuery } from "../pagination";
import { describeFields, isoTimestamps, jsonObject, rowShape } from "../row-shape";
import { amountInCurrency, currencyCode, metadata, paymentSchema, text } from "../payments/schemas";

export const EXPIRES_IN_MIN = 60;
export const EXPIRES_IN_MAX = 2_592_000;
export const EXPIRES_IN_DEFAULT = 3_600;

export const createInvoiceInput = z
  .strictObject({
    amount: z.string().max(64).describe('Positive decimal string, at most the currency\'s decimals: "19.99".'),
    currency: currencyCode,
    orderId: text(255).optional().describe("Your order's id; unique among your invoices that are not `void`."),
    description: text(1000).optional().describe("Shown to the payer on the checkout page."),
    expiresIn: z
      .number()
      .int()
      .min(EXPIRES_IN_MIN)
      .max(EXPIRES_IN_MAX)
      .default(EXPIRES_IN_DEFAULT)
      .describe(`Seconds until the invoice expires (${EXPIRES_IN_MIN} … ${EXPIRES_IN_MAX}, default ${EXPIRES_IN_DEFAULT}).`),
    returnUrl: httpUrl.optional().describe("Where the checkout page links back to once the invoice is paid or expired."),
    metadata: metadata.optional(),
  })
  .superRefine(amountInCurrency);
export type CreateInvoiceInput = z.input<typeof createInvoiceInput>;

/**
 * The Invoice as clients see it (docs/invoices.md); `data` of every `invoice.*` event. The invoices table's row
 * less whose it is and its mode, plus what is computed from it: what is left to pay and the checkout page.
 */
export const invoiceSchema = describeFields(
  createSelectSchema(invoices, { ...isoTimestamps(invoices), metadata: jsonObject })
    .omit({ merchantId: true, livemode: true })
    .extend({
      amountRemaining: z.string().describe("max(0, amount − amountPaid)."),
      checkoutUrl: z.string().describe("The public checkout page; the id in it is the capability, share it only with the payer."),
    }),
  {
    amountPaid: "Sum of the confirmed payments attached.",
    amountPending: "Sum of the pending payments attached.",
    amountRefunded: "Sum of the succeeded refunds of its payments (docs/refunds.md).",
  },
).meta({ id: "Invoice" });
export type Invoice = z.infer<typeof invoiceSchema>;

export const invoiceWithPaymentsSchema = invoiceSchema
  .extend({ payments: z.array(paymentSchema).describe("Every payment attached, oldest first.") })
  .meta({ id: "InvoiceWithPayments" });
export type InvoiceWithPayments = z.infer<typeof invoiceWithPaymentsSchema>;

const invoiceShape = rowShape<typeof invoiceSchema, InvoiceRow & Pick<Invoice, "amountRemaining" | "checkoutUrl">>(invoiceSchema);

/**
 * The invoice as clients see it; `row` is already the effective one (status.ts `effectiveInvoice`). Amounts
 * carry their currency's decimals ("19.90", not the stored "19.9").
 */
export function toInvoice(row: InvoiceRow, publicBaseUrl: string): Invoice {
  const exponent = currencyExponent(row.currency) ?? 0;
  const amount = withDecimals(row.amount, exponent);
  const amountPaid = withDecimals(row.amountPaid, exponent);
  return invoiceShape({
    ...row,
    amount,
    amountPaid,
    amountPending: withDecimals(row.amountPending, exponent),
    amountRefunded: withDecimals(row.amountRefunded, exponent),
    amountRemaining: withDecimals(remainingDecimal(amount, amountPaid), exponent),
    checkoutUrl: `${publicBaseUrl}/pay/${row.id}`,
  });
}

export const invoiceIdInput = z.strictObject({ id: z.string().min(1).max(100) });

export const listInvoicesInput = z
  .strictObject({
    ...pageQuery,
    status: z.enum(invoiceStatuses).optional().describe("The status as shown (an invoice past `expiresAt` counts as `expired`)."),
    orderId: text(255).optional(),
    createdFrom: isoInstantInput({ offset: true }).optional().describe("Inclusive."),
    createdTo: isoInstantInput({ offset: true }).optional().describe("Exclusive."),
  })
  .superRefine(startNotAfterEnd("createdFrom", "createdTo"));
export type ListInvoicesInput = z.input<typeof listInvoicesInput>;
export const invoiceListSchema = listSchema(invoiceSchema);

/** Staff marking an invoice paid or void: the reason goes to the audit log. */
export const staffInvoiceActionInput = z.strictObject({
  invoiceId: z.string().min(1).max(100),
  merchantId: z.string().min(1).max(64),
  reason: text(2000),
});
