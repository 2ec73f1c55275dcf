import { invoiceIdInput } from "@/server/services/invoices/schemas";
import { payTestInvoice, payTestInvoiceInput, payTestInvoiceResult } from "@/server/services/test-mode/pay-invoice";
import { EXAMPLE_IDS, EXAMPLE_INVOICE, EXAMPLE_PAYMENT } from "@/server/openapi/examples";
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

export const testModeRoutes = [payTestInvoiceRoute];
