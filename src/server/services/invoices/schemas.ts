import { z } from "zod";
import { currencyExponent } from "@/lib/currencies";
import { isoInstantInput, startNotAfterEnd } from "@/lib/iso-input";
import { remainingDecimal, withDecimals } from "@/lib/money";
import { invoiceStatusDetails, invoiceStatuses, type InvoiceRow } from "@/server/db/schema";
import { httpUrl } from "../merchants/schemas";
import { listSchema, pageQuery } from "../pagination";
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

const timestamp = z.iso.datetime();

/** The Invoice as clients see it (docs/invoices.md); `data` of every `invoice.*` event. */
export const invoiceSchema = z
  .object({
    id: z.string(),
    orderId: z.string().nullable(),
    amount: z.string(),
    currency: z.string(),
    amountPaid: z.string().describe("Sum of the confirmed payments attached."),
    amountPending: z.string().describe("Sum of the pending payments attached."),
    amountRemaining: z.string().describe("max(0, amount − amountPaid)."),
    status: z.enum(invoiceStatuses),
    statusDetail: z.enum(invoiceStatusDetails).nullable(),
    description: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    checkoutUrl: z.string().describe("The public checkout page; the id in it is the capability, share it only with the payer."),
    returnUrl: z.string().nullable(),
    expiresAt: timestamp,
    paidAt: timestamp.nullable(),
    expiredAt: timestamp.nullable(),
    voidedAt: timestamp.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "Invoice" });
export type Invoice = z.infer<typeof invoiceSchema>;

export const invoiceWithPaymentsSchema = invoiceSchema
  .extend({ payments: z.array(paymentSchema).describe("Every payment attached, oldest first.") })
  .meta({ id: "InvoiceWithPayments" });
export type InvoiceWithPayments = z.infer<typeof invoiceWithPaymentsSchema>;

/** The invoice as clients see it; `row` is already the effective one (status.ts `effectiveInvoice`). */
export function toInvoice(row: InvoiceRow, publicBaseUrl: string): Invoice {
  const exponent = currencyExponent(row.currency) ?? 0;
  const amount = withDecimals(row.amount, exponent);
  const amountPaid = withDecimals(row.amountPaid, exponent);
  const optional = (value: Date | null) => (value ? value.toISOString() : null);
  return {
    id: row.id,
    orderId: row.orderId,
    amount,
    currency: row.currency,
    amountPaid,
    amountPending: withDecimals(row.amountPending, exponent),
    amountRemaining: withDecimals(remainingDecimal(amount, amountPaid), exponent),
    status: row.status,
    statusDetail: row.statusDetail,
    description: row.description,
    metadata: row.metadata,
    checkoutUrl: `${publicBaseUrl}/pay/${row.id}`,
    returnUrl: row.returnUrl,
    expiresAt: row.expiresAt.toISOString(),
    paidAt: optional(row.paidAt),
    expiredAt: optional(row.expiredAt),
    voidedAt: optional(row.voidedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
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
