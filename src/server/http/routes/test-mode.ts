import { invoiceIdInput } from "@/server/services/invoices/schemas";
import { refundIdInput, refundSchema } from "@/server/services/refunds/schemas";
import { simulateClaimInput, simulateRefundClaim, simulateRefundSettle, simulateSettleInput } from "@/server/services/test-mode/refund";
import { payTestInvoice, payTestInvoiceInput, payTestInvoiceResult } from "@/server/services/test-mode/pay-invoice";
import { EXAMPLE_CLAIM_REFUND, EXAMPLE_IDS, EXAMPLE_INVOICE, EXAMPLE_PAYMENT, EXAMPLE_REFUND, EXAMPLE_TIME } from "@/server/openapi/examples";
import { defineRoute } from "../route";

const simulatedPayment = {
  ...EXAMPLE_PAYMENT,
  externalId: "sim_01jd7z9k2q3r4s5t6v7w8x9y0z",
  reference: null,
  invoiceId: EXAMPLE_IDS.invoice,
  method: "test",
  network: null,
  metadata: { simulated: true },
  occurredAt: null,
};

// POST /api/v1/test/invoice/{id}/pay – simulate a customer paying a test invoice
export const payTestInvoiceRoute = defineRoute({
  operationId: "payTestInvoice",
  method: "POST",
  path: "/test/invoice/{id}/pay",
  summary: "Simulate a payment (test mode)",
  description:
    "Test keys only (a live key gets 403 `test_mode_only`). Records a test payment attached to one of your test " +
    "invoices, as `POST /payment/confirm` would: the invoice's amounts and status move and its `payment.*` and " +
    "`invoice.*` events go to your test endpoints. `amount` defaults to what is still owed; `status` to `confirmed` " +
    "(docs/test-mode.md).",
  tags: ["Test mode"],
  auth: "api_key",
  permission: "invoices.write",
  params: invoiceIdInput,
  body: payTestInvoiceInput,
  bodyExample: { amount: "19.99", status: "confirmed" },
  responses: {
    201: {
      description: "The simulated payment and the invoice after it.",
      schema: payTestInvoiceResult,
      example: { payment: simulatedPayment, invoice: { ...EXAMPLE_INVOICE, payments: [simulatedPayment] } },
    },
  },
  errors: ["test_mode_only", "not_found", "currency_mismatch", "invoice_not_payable", "idempotency_key_reused", "idempotency_key_in_use"],
  idempotency: { store: "final", atomic: true },
  handler: async ({ ctx, params, body }) => ({ status: 201, body: await payTestInvoice({ ctx, input: { ...body, id: params.id } }) }),
});

// POST /api/v1/test/refund/{id}/claim – simulate the payer claiming a test refund's link
export const simulateRefundClaimRoute = defineRoute({
  operationId: "simulateRefundClaim",
  method: "POST",
  path: "/test/refund/{id}/claim",
  summary: "Simulate a refund claim (test mode)",
  description:
    "Test keys only (a live key gets 403 `test_mode_only`). The payer of one of your test refunds in `requires_action` gives a " +
    "destination, as on the claim page: the refund becomes `pending` and `refund.claimed` goes to your test endpoints (docs/test-mode.md).",
  tags: ["Test mode"],
  auth: "api_key",
  permission: "refunds.write",
  params: refundIdInput,
  body: simulateClaimInput,
  bodyExample: { destination: "DE89 3704 0044 0532 0130 00" },
  responses: {
    200: {
      description: "The claimed refund.",
      schema: refundSchema,
      example: { ...EXAMPLE_CLAIM_REFUND, status: "pending", destination: "DE89 3704 0044 0532 0130 00", claimedAt: EXAMPLE_TIME },
    },
  },
  errors: ["test_mode_only", "not_found", "refund_already_claimed", "refund_claim_expired", "idempotency_key_reused", "idempotency_key_in_use"],
  idempotency: { store: "final", atomic: true },
  handler: async ({ ctx, params, body }) => ({ status: 200, body: await simulateRefundClaim({ ctx, input: { ...body, id: params.id } }) }),
});

// POST /api/v1/test/refund/{id}/settle – simulate the processor's outcome for a pending test refund
export const simulateRefundSettleRoute = defineRoute({
  operationId: "simulateRefundSettle",
  method: "POST",
  path: "/test/refund/{id}/settle",
  summary: "Simulate a refund's outcome (test mode)",
  description:
    "Test keys only. Moves one of your pending test refunds to `succeeded` or `failed` as `POST /refund/{id}` would, with its " +
    "event and the payment's refunded amounts (docs/test-mode.md).",
  tags: ["Test mode"],
  auth: "api_key",
  permission: "refunds.write",
  params: refundIdInput,
  body: simulateSettleInput,
  bodyExample: { status: "succeeded" },
  responses: { 200: { description: "The settled refund.", schema: refundSchema, example: EXAMPLE_REFUND } },
  errors: ["test_mode_only", "not_found", "invalid_transition", "idempotency_key_reused", "idempotency_key_in_use"],
  idempotency: { store: "final", atomic: true },
  handler: async ({ ctx, params, body }) => ({ status: 200, body: await simulateRefundSettle({ ctx, input: { ...body, id: params.id } }) }),
});

export const testModeRoutes = [payTestInvoiceRoute, simulateRefundClaimRoute, simulateRefundSettleRoute];
