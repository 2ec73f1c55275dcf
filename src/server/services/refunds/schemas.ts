import { z } from "zod";
import { createSelectSchema } from "drizzle-zod";
import { currencyExponent } from "@/lib/currencies";
import { isoInstantInput, startNotAfterEnd } from "@/lib/iso-input";
import { canonicalAmount, MAX_INTEGER_DIGITS, withDecimals } from "@/lib/money";
import type { Env } from "@/env";
import { refundClaimToken } from "@/server/crypto/refund-claim-token";
import { refundReasons, refunds, refundStatuses, type RefundRow } from "@/server/db/schema";
import { listSchema, pageQuery } from "../pagination";
import { currencyCode, metadata, text } from "../payments/schemas";
import { describeFields, isoTimestamps, jsonObject, rowShape } from "../row-shape";

export const CLAIM_EXPIRES_IN_MIN = 3_600;
export const CLAIM_EXPIRES_IN_MAX = 2_592_000;
/** An unclaimed claim link expires after 7 days unless the merchant says otherwise (docs/refunds.md). */
export const CLAIM_EXPIRES_IN_DEFAULT = 604_800;
export const DESTINATION_MAX = 200;

/** A positive decimal string; whether its decimals fit is decided against the payment's currency, in the verb. */
const refundAmount = z
  .string()
  .max(64)
  .refine((value) => canonicalAmount(value, MAX_INTEGER_DIGITS).ok, 'must be a positive decimal string such as "10.00"');

/** How a refund is recorded as made (or failed) at the processor: the statuses a merchant may report. */
export const reportedRefundStatuses = ["pending", "succeeded", "failed"] as const;

export const createRefundInput = z
  .strictObject({
    paymentId: z.string().min(1).max(100).describe("The confirmed payment to refund (`pay_…`), yours and in this key's mode."),
    amount: refundAmount.optional().describe("At most the payment's decimals; default what is still refundable."),
    currency: currencyCode.optional().describe("If sent, must be the payment's currency (409 `currency_mismatch` otherwise)."),
    reason: z.enum(refundReasons).optional(),
    note: text(1000).optional().describe("Your own words about it; never shown to the payer."),
    externalId: text(255)
      .optional()
      .describe("The processor's refund id: unique per merchant and mode. Sending it again answers 200 with the same refund and moves it on."),
    status: z
      .enum(reportedRefundStatuses)
      .optional()
      .describe("Default `pending` (initiated); `succeeded` records one already made. Leave it out with `claim`."),
    claim: z
      .strictObject({
        expiresIn: z
          .number()
          .int()
          .min(CLAIM_EXPIRES_IN_MIN)
          .max(CLAIM_EXPIRES_IN_MAX)
          .default(CLAIM_EXPIRES_IN_DEFAULT)
          .describe(`Seconds the claim link stays open (${CLAIM_EXPIRES_IN_MIN} … ${CLAIM_EXPIRES_IN_MAX}, default 7 days).`),
        instructions: text(1000).optional().describe("Shown to the payer on the claim page."),
      })
      .optional()
      .describe("Let the payer say where the money goes: the refund waits in `requires_action` with a `claimUrl` to send them."),
    metadata: metadata.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.claim && input.status) ctx.addIssue({ code: "custom", path: ["status"], message: "must be left out with `claim`: a claim starts in requires_action" });
  });
export type CreateRefundInput = z.input<typeof createRefundInput>;

export const updateRefundInput = z
  .strictObject({
    status: z.enum(reportedRefundStatuses).describe("`pending` (sent on its way), `succeeded` or `failed`."),
    externalId: text(255).optional().describe("The processor's refund id, if the refund has none yet."),
    failureReason: text(500).optional().describe("Why it failed; only with `status: failed`."),
  })
  .superRefine((input, ctx) => {
    if (input.failureReason && input.status !== "failed") ctx.addIssue({ code: "custom", path: ["failureReason"], message: "only with status failed" });
  });
export type UpdateRefundInput = z.input<typeof updateRefundInput>;

export const claimRefundInput = z.strictObject({
  destination: z.string().trim().min(1, "must not be empty").max(DESTINATION_MAX).describe("Where the payer wants the money: an IBAN, an address, an account."),
  network: text(64).optional().describe("The network of a crypto address (for crypto currencies)."),
});
export type ClaimRefundInput = z.input<typeof claimRefundInput>;

export const refundIdInput = z.strictObject({ id: z.string().min(1).max(100) });

/**
 * The Refund as clients see it (docs/refunds.md); `data` of every `refund.*` event. The refunds table's row less
 * whose it is, its mode and the claim token's digest, plus the claim link.
 */
export const refundSchema = describeFields(
  createSelectSchema(refunds, { ...isoTimestamps(refunds), metadata: jsonObject })
    .omit({ merchantId: true, livemode: true, claimTokenHash: true })
    .extend({
      claimUrl: z.string().nullable().describe("The payer's claim page, for a refund made with `claim`; the token in it is the capability."),
    }),
  {
    invoiceId: "The payment's invoice, when it has one.",
    amount: "In the payment's currency, with its decimals.",
    destination: "What the payer gave on the claim page (or null).",
    failureReason: "Why it failed or was canceled (`claim_expired` when nobody claimed it).",
  },
).meta({ id: "Refund" });
export type Refund = z.infer<typeof refundSchema>;

const refundShape = rowShape<typeof refundSchema, RefundRow & Pick<Refund, "claimUrl">>(refundSchema);

/** The refund as clients see it; the claim link is rebuilt from the id (crypto/refund-claim-token.ts). */
export function toRefund(row: RefundRow, env: Pick<Env, "AUTH_SECRET" | "PUBLIC_BASE_URL">): Refund {
  const exponent = currencyExponent(row.currency) ?? 0;
  return refundShape({
    ...row,
    amount: withDecimals(row.amount, exponent),
    claimUrl: row.claimTokenHash ? claimUrlOf(env, row.id) : null,
  });
}

export function claimUrlOf(env: Pick<Env, "AUTH_SECRET" | "PUBLIC_BASE_URL">, refundId: string): string {
  return `${env.PUBLIC_BASE_URL}/refund/${refundClaimToken(env.AUTH_SECRET, refundId)}`;
}

export const listRefundsInput = z
  .strictObject({
    ...pageQuery,
    status: z.enum(refundStatuses).optional(),
    paymentId: z.string().min(1).max(100).optional(),
    invoiceId: z.string().min(1).max(100).optional(),
    createdFrom: isoInstantInput({ offset: true }).optional().describe("Inclusive."),
    createdTo: isoInstantInput({ offset: true }).optional().describe("Exclusive."),
  })
  .superRefine(startNotAfterEnd("createdFrom", "createdTo"));
export type ListRefundsInput = z.input<typeof listRefundsInput>;
export const refundListSchema = listSchema(refundSchema);
