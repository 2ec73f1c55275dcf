import { z } from "zod";
import { eventTypes, type EventType } from "@/lib/event-types";
import { publishedKeySchema } from "@/server/services/published-keys/schemas";
import { invoiceSchema } from "@/server/services/invoices/schemas";
import { paymentSchema } from "@/server/services/payments/schemas";
import { refundSchema } from "@/server/services/refunds/schemas";
import { endpointSchema } from "@/server/services/webhook-endpoints/schemas";
import { webhookPayloadSchema } from "@/server/services/webhooks/schemas";
import {
  EXAMPLE_ENDPOINT,
  EXAMPLE_IDS,
  EXAMPLE_INVOICE,
  EXAMPLE_JWK,
  EXAMPLE_OPEN_INVOICE,
  EXAMPLE_PAYMENT,
  EXAMPLE_PENDING_PAYMENT,
  EXAMPLE_PUBLISHED_KEY,
  EXAMPLE_CLAIM_REFUND,
  EXAMPLE_REFUND,
  EXAMPLE_SIGNATURE,
  EXAMPLE_TIME,
  EXAMPLE_UNIX_TIME,
} from "./examples";

/** The three Standard Webhooks headers every delivery carries (docs/webhooks.md, "What we send"). */
export const webhookHeadersSchema = z.object({
  "webhook-id": z
    .string()
    .describe("The event id (`evt_…`), the same on every retry: drop an id you have already processed.")
    .meta({ example: EXAMPLE_IDS.event }),
  "webhook-timestamp": z
    .string()
    .regex(/^\d+$/)
    .describe("Unix seconds when this attempt was signed; refuse it outside ±5 minutes of your clock.")
    .meta({ example: EXAMPLE_UNIX_TIME }),
  "webhook-signature": z
    .string()
    .describe(
      'Space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` entries keyed with your `whsec_…` secret ' +
        "(two while a secret is being rotated). Verify with the standardwebhooks or svix libraries over the raw body.",
    )
    .meta({ example: EXAMPLE_SIGNATURE }),
});

export interface EventDocumentation {
  summary: string;
  description: string;
  /** The schema of the body's `data`. */
  data: z.ZodType;
  /** A `data` value for the example body; the contract test parses it with `data`. */
  example: unknown;
}

/**
 * Every event type, documented: a Record over EventType, so adding a type without documenting it does not
 * compile. Bodies are `{type, timestamp, data}` (src/server/webhooks/payload.ts).
 */
export const eventDocumentation: Record<EventType, EventDocumentation> = {
  "payment.pending": {
    summary: "A payment was recorded as pending",
    description: "Sent when `POST /payment/confirm` records a new payment with status `pending`. `data` is the Payment.",
    data: paymentSchema,
    example: EXAMPLE_PENDING_PAYMENT,
  },
  "payment.confirmed": {
    summary: "A payment was confirmed",
    description: "Sent when a payment is recorded as confirmed, or moves from `pending` to `confirmed`. `data` is the Payment.",
    data: paymentSchema,
    example: EXAMPLE_PAYMENT,
  },
  "payment.failed": {
    summary: "A payment failed",
    description: "Sent when a payment is recorded as failed, or moves from `pending` to `failed`. `data` is the Payment.",
    data: paymentSchema,
    example: { ...EXAMPLE_PENDING_PAYMENT, status: "failed", failedAt: EXAMPLE_TIME },
  },
  "keys.published": {
    summary: "Public keys were published",
    description:
      "Sent when `POST /merchant/keys/publish` adds keys: the new ones, and the ones they retired (a kid " +
      "published again replaces its previous key). Revocation sends no event.",
    data: z.object({
      keys: z.array(publishedKeySchema.pick({ id: true, kid: true, use: true, thumbprint: true, jwk: true })),
      retired: z.array(publishedKeySchema.pick({ id: true, kid: true, thumbprint: true })),
    }),
    example: {
      keys: [{ id: EXAMPLE_PUBLISHED_KEY.id, kid: EXAMPLE_PUBLISHED_KEY.kid, use: "sig", thumbprint: EXAMPLE_PUBLISHED_KEY.thumbprint, jwk: EXAMPLE_JWK }],
      retired: [],
    },
  },
  "webhook.test": {
    summary: "A test event",
    description: "Sent by `POST /webhook/test` (without `dryRun`) to check that your endpoint receives and verifies.",
    data: z.object({ message: z.string(), merchantId: z.string() }),
    example: { message: "A test webhook from Merchant Payments. No action is needed.", merchantId: EXAMPLE_IDS.merchant },
  },
  "invoice.created": {
    summary: "An invoice was created",
    description: "Sent when `POST /invoice` creates an invoice. `data` is the Invoice (status `open`).",
    data: invoiceSchema,
    example: EXAMPLE_OPEN_INVOICE,
  },
  "invoice.payment_received": {
    summary: "A payment on an invoice was recorded or confirmed",
    description:
      "Sent when a pending or confirmed payment is attached to the invoice (`POST /payment/confirm` with its `inv_` id), " +
      "and again when an attached pending payment confirms. `data` is the Invoice with its new amounts. Not a signal to fulfil: wait for `invoice.paid`.",
    data: invoiceSchema,
    example: { ...EXAMPLE_OPEN_INVOICE, amountPaid: "10.00", amountRemaining: "9.99", statusDetail: "partially_paid" },
  },
  "invoice.payment_failed": {
    summary: "A payment on an invoice failed",
    description:
      "Sent when a failed payment is attached to the invoice, or an attached pending payment fails. It counts for nothing; " +
      "if the invoice was `processing` on that payment, it is `open` again. `data` is the Invoice as it now is.",
    data: invoiceSchema,
    example: EXAMPLE_OPEN_INVOICE,
  },
  "invoice.processing": {
    summary: "An invoice is covered by payments still pending",
    description: "Sent when confirmed plus pending payments reach the amount before the confirmed ones do. `data` is the Invoice.",
    data: invoiceSchema,
    example: { ...EXAMPLE_OPEN_INVOICE, status: "processing", amountPending: "19.99" },
  },
  "invoice.paid": {
    summary: "An invoice is paid: fulfil the order",
    description:
      "Sent once per invoice, when its confirmed payments reach the amount (`statusDetail` `overpaid` or `paid_late` " +
      "tells the special cases apart) or when support staff mark it paid (`marked`). `data` is the Invoice.",
    data: invoiceSchema,
    example: EXAMPLE_INVOICE,
  },
  "invoice.expired": {
    summary: "An invoice expired unpaid",
    description:
      "Sent once per invoice, within seconds of `expiresAt`, when it was not paid. Payments confirmed within the grace " +
      "period still mark it paid (`paid_late`). `data` is the Invoice.",
    data: invoiceSchema,
    example: { ...EXAMPLE_OPEN_INVOICE, status: "expired", expiredAt: EXAMPLE_OPEN_INVOICE.expiresAt, updatedAt: EXAMPLE_OPEN_INVOICE.expiresAt },
  },
  "invoice.voided": {
    summary: "An invoice was voided",
    description: "Sent when `POST /invoice/{id}/void` (or support staff, `marked`) voids an open or expired invoice. `data` is the Invoice.",
    data: invoiceSchema,
    example: { ...EXAMPLE_OPEN_INVOICE, status: "void", voidedAt: EXAMPLE_TIME, updatedAt: EXAMPLE_TIME },
  },
  "webhook.endpoint_disabled": {
    summary: "One of your webhook endpoints was disabled",
    description:
      "Sent to your other endpoints when one answered `410 Gone` (`reason: gone`) or failed every attempt for " +
      "`WEBHOOK_DISABLE_AFTER` (5 days by default; `reason: failing`). Its deliveries wait; enabling it again sends them.",
    data: z.object({ endpoint: endpointSchema, reason: z.enum(["failing", "gone"]) }),
    example: { endpoint: { ...EXAMPLE_ENDPOINT, status: "disabled", disabledReason: "gone" }, reason: "gone" },
  },
  "refund.created": {
    summary: "A refund was recorded or a claim link opened",
    description:
      "Sent when `POST /refund` creates a refund, whatever its first status: `pending` (initiated), `succeeded` (already made; " +
      "`refund.succeeded` follows in the same transaction) or `requires_action` (send the payer its `claimUrl`). `data` is the Refund.",
    data: refundSchema,
    example: EXAMPLE_CLAIM_REFUND,
  },
  "refund.claimed": {
    summary: "The payer claimed a refund",
    description:
      "Sent when the payer gives a destination on the claim page: the refund is `pending` with `destination` set. Send the money " +
      "there, then record it with `POST /refund/{id}` (`succeeded`, or `failed`). `data` is the Refund.",
    data: refundSchema,
    example: { ...EXAMPLE_CLAIM_REFUND, status: "pending", destination: "DE89 3704 0044 0532 0130 00", claimedAt: EXAMPLE_TIME, updatedAt: EXAMPLE_TIME },
  },
  "refund.succeeded": {
    summary: "A refund was made",
    description:
      "Sent when a refund is recorded as made (created `succeeded`, or moved there). The payment's `amountRefunded` and " +
      "`refundStatus` (and its invoice's `amountRefunded`) now count it. `data` is the Refund.",
    data: refundSchema,
    example: EXAMPLE_REFUND,
  },
  "refund.failed": {
    summary: "A refund failed",
    description: "Sent when a refund is recorded as failed; its amount is refundable again. `failureReason` says why. `data` is the Refund.",
    data: refundSchema,
    example: { ...EXAMPLE_REFUND, status: "failed", succeededAt: null, failedAt: EXAMPLE_TIME, failureReason: "account_closed" },
  },
  "refund.canceled": {
    summary: "A refund was canceled",
    description:
      "Sent when `POST /refund/{id}/cancel` cancels a refund, or a claim link expires unclaimed (`failureReason: \"claim_expired\"`). " +
      "Its amount is refundable again. `data` is the Refund.",
    data: refundSchema,
    example: { ...EXAMPLE_CLAIM_REFUND, status: "canceled", failureReason: "claim_expired", canceledAt: EXAMPLE_CLAIM_REFUND.claimExpiresAt },
  },
};

/** The body of one event type: `{type, timestamp, data}`. */
export function eventBodySchema(type: EventType) {
  return webhookPayloadSchema.extend({ type: z.literal(type), data: eventDocumentation[type].data });
}

export function eventBodyExample(type: EventType) {
  return { type, timestamp: EXAMPLE_TIME, data: eventDocumentation[type].example };
}

export { eventTypes };
