import { z } from "zod";
import { confirmPayment } from "@/server/services/payments/confirm";
import { getPayment } from "@/server/services/payments/get";
import { listPayments } from "@/server/services/payments/list";
import {
  confirmPaymentInput,
  getPaymentInput,
  listPaymentsInput,
  paymentListSchema,
  paymentSchema,
  paymentStatsInput,
  paymentStatsSchema,
} from "@/server/services/payments/schemas";
import { getPaymentStats } from "@/server/services/payments/stats";
import { EXAMPLE_CURSOR, EXAMPLE_IDS, EXAMPLE_PAYMENT } from "@/server/openapi/examples";
import { defineRoute } from "../route";

// POST /api/v1/payment/confirm – record a payment or move a pending one to confirmed/failed
export const confirmPaymentRoute = defineRoute({
  operationId: "confirmPayment",
  method: "POST",
  path: "/payment/confirm",
  summary: "Record or confirm a payment",
  description:
    "Keyed by your `externalId`: a new one is created (201); a pending one moves to `confirmed` or `failed` " +
    "(200); the same status again changes nothing (200, no new event). Each change emits a `payment.*` event. " +
    "An `invoiceId` starting with `inv_` attaches the payment to that invoice of yours, in the same transaction " +
    "(its amounts, status and `invoice.*` events); any other `invoiceId` is a free-form reference.",
  tags: ["Payments"],
  auth: "api_key",
  permission: "payments.write",
  body: confirmPaymentInput,
  bodyExample: {
    externalId: EXAMPLE_PAYMENT.externalId,
    amount: "19.99",
    currency: "EUR",
    status: "confirmed",
    reference: "order-1042",
    invoiceId: EXAMPLE_IDS.invoice,
    method: "card",
    occurredAt: "2026-11-22T11:59:58.000Z",
    metadata: { orderId: "1042", channel: "web" },
  },
  responses: {
    201: { description: "The payment was recorded.", schema: paymentSchema, example: EXAMPLE_PAYMENT },
    200: {
      description: "The payment existed; it was moved on, or already had this status.",
      schema: paymentSchema,
      example: EXAMPLE_PAYMENT,
    },
  },
  errors: [
    "invalid_transition",
    "payment_conflict",
    "invoice_not_found",
    "currency_mismatch",
    "invoice_not_payable",
    "idempotency_key_reused",
    "idempotency_key_in_use",
  ],
  // Only database work: the stored answer commits in the payment's own transaction.
  idempotency: { store: "final", atomic: true },
  handler: async ({ ctx, body }) => {
    const { payment, created } = await confirmPayment({ ctx, input: body });
    return { status: created ? 201 : 200, body: payment };
  },
});

// GET /api/v1/payment – the merchant's payments, newest first
export const listPaymentsRoute = defineRoute({
  operationId: "listPayments",
  method: "GET",
  path: "/payment",
  summary: "List payments",
  description: "Newest first, cursor-paginated: pass `nextCursor` back as `cursor` until `hasMore` is false.",
  tags: ["Payments"],
  auth: "api_key",
  permission: "payments.read",
  query: listPaymentsInput,
  responses: {
    200: {
      description: "A page of payments.",
      schema: paymentListSchema,
      example: { data: [EXAMPLE_PAYMENT], hasMore: true, nextCursor: EXAMPLE_CURSOR },
    },
  },
  errors: ["invalid_cursor"],
  handler: async ({ ctx, query }) => ({ status: 200, body: await listPayments({ ctx, input: query }) }),
});

// GET /api/v1/payment/{id} – one payment
export const getPaymentRoute = defineRoute({
  operationId: "getPayment",
  method: "GET",
  path: "/payment/{id}",
  summary: "Get a payment",
  tags: ["Payments"],
  auth: "api_key",
  permission: "payments.read",
  params: getPaymentInput,
  responses: { 200: { description: "The payment.", schema: paymentSchema, example: EXAMPLE_PAYMENT } },
  errors: ["not_found"],
  handler: async ({ ctx, params }) => ({ status: 200, body: await getPayment({ ctx, input: params }) }),
});

// GET /api/v1/merchant/{id}/stats – counts, volume per currency, daily series, webhook health
export const merchantStatsRoute = defineRoute({
  operationId: "getMerchantStats",
  method: "GET",
  path: "/merchant/{id}/stats",
  summary: "Merchant statistics",
  description: `Figures for the UTC days \`from\`..\`to\` (inclusive; default the last 30 days, at most 366).`,
  tags: ["Merchants"],
  auth: "api_key",
  permission: "payments.read",
  params: z.object({ id: z.string().min(1).max(100) }),
  query: paymentStatsInput,
  responses: {
    200: {
      description: "The statistics.",
      schema: paymentStatsSchema,
      example: {
        merchantId: EXAMPLE_IDS.merchant,
        from: "2026-11-21",
        to: "2026-11-22",
        payments: { total: 3, pending: 1, confirmed: 2, failed: 0 },
        volume: [
          { currency: "EUR", amount: "39.98", count: 2 },
        ],
        refunds: [{ currency: "EUR", amount: "10.00", count: 1 }],
        netVolume: [{ currency: "EUR", amount: "29.98" }],
        daily: [
          { date: "2026-11-21", count: 1, volume: [{ currency: "EUR", amount: "19.99" }] },
          { date: "2026-11-22", count: 2, volume: [{ currency: "EUR", amount: "19.99" }] },
        ],
        webhooks: { delivered: 2, pending: 1, failed: 0, successRate: 1 },
      },
    },
  },
  errors: ["not_found"],
  handler: async ({ ctx, params, query }) => ({
    status: 200,
    body: await getPaymentStats({ ctx, input: { ...query, merchantId: params.id } }),
  }),
});

export const paymentRoutes = [confirmPaymentRoute, listPaymentsRoute, getPaymentRoute, merchantStatsRoute];
