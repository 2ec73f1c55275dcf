import { z } from "zod";
import { isoDayInput, isoInstantInput, startNotAfterEnd } from "@/lib/iso-input";
import { currencyExponent } from "@/lib/currencies";
import { canonicalAmount, withDecimals } from "@/lib/money";
import { getTableColumns } from "drizzle-orm";
import { createSelectSchema } from "drizzle-zod";
import { payments, paymentStatuses, type PaymentRow } from "@/server/db/schema";
import { exactJson } from "../exact-json";
import { listSchema, pageQuery } from "../pagination";
import { describeFields, isoTimestamps, jsonObject, rowShape } from "../row-shape";

export const METADATA_MAX_KEYS = 20;
export const METADATA_MAX_BYTES = 4096;

// Strings PostgreSQL cannot store are refused before any schema runs (services/input-guard.ts).
export const text = (max: number) => z.string().min(1).max(max);

// `.toUpperCase()` is an in-place overwrite in zod 4, not a transform: the schema stays plain for OpenAPI.
export const currencyCode = z
  .string()
  .toUpperCase()
  .regex(/^[A-Z0-9]{2,10}$/, "must be an ISO 4217 code or an asset symbol such as BTC");

// Screened as sent (exactJson): numbers JSON cannot carry exactly and `__proto__` keys
// are a 400 naming the place, never stored changed or silently dropped.
export const metadata = exactJson(
  z
    .record(z.string().min(1).max(40), z.unknown())
    .refine((value) => Object.keys(value).length <= METADATA_MAX_KEYS, `must have at most ${METADATA_MAX_KEYS} keys`)
    .refine((value) => Buffer.byteLength(JSON.stringify(value)) <= METADATA_MAX_BYTES, `must be at most ${METADATA_MAX_BYTES} bytes as JSON`)
    .describe(
      `Your own JSON object (≤ ${METADATA_MAX_KEYS} keys, ≤ ${METADATA_MAX_BYTES} bytes), returned exactly as sent. Numbers must be ` +
        "finite and within ±(2^53 − 1): send exact or larger numbers as strings. Keys named `__proto__` are refused.",
    ),
);

/**
 * The cross-field check of every `{amount, currency}` input (payments, invoices): a known currency, and an
 * amount with at most its decimals. A refinement (not a transform), so the schema documents itself in
 * OpenAPI; the verbs derive the canonical amount with the same function.
 */
export function amountInCurrency(input: { amount: string; currency: string }, ctx: z.RefinementCtx) {
  const exponent = currencyExponent(input.currency);
  if (exponent === undefined) {
    ctx.addIssue({ code: "custom", path: ["currency"], message: `unknown currency ${input.currency}` });
    return;
  }
  const amount = canonicalAmount(input.amount, exponent);
  if (!amount.ok) ctx.addIssue({ code: "custom", path: ["amount"], message: amount.message });
}

export const confirmPaymentInput = z
  .strictObject({
    externalId: text(255).describe("Your id for this payment (network transaction id, processor reference): the idempotency key of the record."),
    amount: z.string().max(64).describe('Positive decimal string, at most the currency\'s decimals: "19.99".'),
    currency: currencyCode,
    status: z.enum(paymentStatuses).default("confirmed"),
    reference: text(255).optional(),
    invoiceId: text(255).optional(),
    method: text(64).optional(),
    network: text(64).optional(),
    occurredAt: isoInstantInput({ offset: true }).optional().describe("When it happened on the network; not in the future."),
    metadata: metadata.optional(),
  })
  .superRefine(amountInCurrency);
export type ConfirmPaymentInput = z.input<typeof confirmPaymentInput>;

/**
 * The payment table's row as a zod schema (drizzle-zod): text, numeric (a string) and the status enum as the
 * table declares them; timestamps as ISO strings, metadata a JSON object.
 */
const paymentRowSchema = createSelectSchema(payments, { ...isoTimestamps(payments), metadata: jsonObject });

/**
 * The Payment as clients see it (docs/api-contract.md, "Shapes"): the row less whose it is, its mode (the key that
 * reads it already says which: docs/test-mode.md), staff's notes and the refunds' bookkeeping (`amountHeld`).
 */
export const paymentSchema = describeFields(
  paymentRowSchema.omit({ merchantId: true, livemode: true, reconciledBy: true, reconciliationNote: true, amountHeld: true }),
  {
    amountRefunded: "Sum of its succeeded refunds (docs/refunds.md).",
    refundStatus: "`none`, `partial` or `full`: how much of it its succeeded refunds gave back.",
  },
).meta({ id: "Payment" });
export type Payment = z.infer<typeof paymentSchema>;

/** What support staff see: the payment, whose it is, and the reconciliation details. */
export const staffPaymentSchema = paymentSchema.extend(
  paymentRowSchema.pick({ merchantId: true, reconciledBy: true, reconciliationNote: true }).shape,
);
export type StaffPayment = z.infer<typeof staffPaymentSchema>;

/** The columns a Payment is read from (the list's and get's select). */
export const paymentColumns = pickColumns(getTableColumns(payments), Object.keys(paymentSchema.shape) as (keyof Payment)[]);

function pickColumns<C extends Record<string, unknown>, K extends keyof C>(columns: C, keys: K[]): Pick<C, K> {
  return Object.fromEntries(keys.map((key) => [key, columns[key]])) as Pick<C, K>;
}

/** The payment as clients see it, field for field in the API's order; timestamps as ISO 8601 UTC with milliseconds. */
const paymentShape = rowShape<typeof paymentSchema, Pick<PaymentRow, keyof Payment>>(paymentSchema);
export function toPayment(row: Pick<PaymentRow, keyof Payment>): Payment {
  // Stored as the sum of refunds ("0" before any): shown with the currency's decimals like `amount`.
  return paymentShape({ ...row, amountRefunded: withDecimals(row.amountRefunded, currencyExponent(row.currency) ?? 0) });
}
const staffPaymentShape = rowShape<typeof staffPaymentSchema, PaymentRow>(staffPaymentSchema);
export const toStaffPayment = (row: PaymentRow): StaffPayment => staffPaymentShape({ ...row, amountRefunded: withDecimals(row.amountRefunded, currencyExponent(row.currency) ?? 0) });

export const listPaymentsInput = z.strictObject({
  ...pageQuery,
  status: z.enum(paymentStatuses).optional(),
  currency: currencyCode.optional(),
  reference: text(255).optional(),
  externalId: text(255).optional(),
  q: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .optional()
    .describe("Part of the external id, the reference or the payment id: its start or any part of it, case-insensitive."),
  reconciled: z.enum(["true", "false"]).optional().describe("Only payments marked reconciled (`true`) or not yet (`false`)."),
  createdFrom: isoInstantInput({ offset: true }).optional().describe("Inclusive."),
  createdTo: isoInstantInput({ offset: true }).optional().describe("Exclusive."),
}).superRefine(startNotAfterEnd("createdFrom", "createdTo"));
export type ListPaymentsInput = z.input<typeof listPaymentsInput>;
export const paymentListSchema = listSchema(paymentSchema);

export const getPaymentInput = z.object({ id: z.string().min(1).max(100) });

export const MAX_STATS_DAYS = 366;
export const DEFAULT_STATS_DAYS = 30;

export const paymentStatsInput = z.strictObject({
  from: isoDayInput().optional().describe(`First UTC day (inclusive); default ${DEFAULT_STATS_DAYS} days before \`to\`.`),
  to: isoDayInput().optional().describe("Last UTC day (inclusive); default today."),
  basis: z
    .enum(["created", "occurred"])
    .optional()
    .describe("Which time places a payment in a day: `created` (default, when it was recorded here) or `occurred` (its `occurredAt`, else its creation), so imported history lands on its real days."),
});
export type PaymentStatsInput = z.input<typeof paymentStatsInput>;

const volume = z.object({ currency: z.string(), amount: z.string() });

export const paymentStatsSchema = z.object({
  merchantId: z.string(),
  from: z.iso.date(),
  to: z.iso.date(),
  payments: z.object({ total: z.number().int(), pending: z.number().int(), confirmed: z.number().int(), failed: z.number().int() }),
  volume: z.array(volume.extend({ count: z.number().int() })).describe("Confirmed amounts per currency; never summed across currencies."),
  refunds: z
    .array(volume.extend({ count: z.number().int() }))
    .describe("Succeeded refunds per currency, placed in the window by when they succeeded (docs/refunds.md)."),
  netVolume: z.array(volume).describe("Per currency: confirmed volume less succeeded refunds in the window (negative when refunds exceed it)."),
  daily: z.array(z.object({ date: z.iso.date(), count: z.number().int(), volume: z.array(volume) })),
  webhooks: z.object({
    delivered: z.number().int(),
    pending: z.number().int(),
    failed: z.number().int(),
    successRate: z.number().min(0).max(1).nullable().describe("delivered / (delivered + failed); null before any finished delivery."),
  }),
});
export type PaymentStats = z.infer<typeof paymentStatsSchema>;

export const reconcilePaymentInput = z.strictObject({
  paymentId: z.string().min(1).max(100),
  // A note of blanks says nothing about what the payment was matched against.
  note: z.string().trim().min(1).max(2000),
});
export const clearReconciliationInput = z.strictObject({ paymentId: z.string().min(1).max(100) });
export const searchPaymentsInput = z.strictObject({
  query: z.string().trim().min(1).max(255).describe("A payment id, an external id or a reference, or its start or any part of it (case-insensitive)."),
  limit: z.number().int().min(1).max(100).default(50),
});
