import { createInvoice } from "@/server/services/invoices/create";
import { getCheckout, checkoutSchema } from "@/server/services/invoices/get-checkout";
import { getInvoice } from "@/server/services/invoices/get";
import { listInvoices } from "@/server/services/invoices/list";
import {
  createInvoiceInput,
  invoiceIdInput,
  invoiceListSchema,
  invoiceSchema,
  invoiceWithPaymentsSchema,
  listInvoicesInput,
} from "@/server/services/invoices/schemas";
import { voidInvoice } from "@/server/services/invoices/void";
import { EXAMPLE_CURSOR, EXAMPLE_INVOICE, EXAMPLE_OPEN_INVOICE, EXAMPLE_PAYMENT, EXAMPLE_PAYMENT_METHODS } from "@/server/openapi/examples";
import { offeredMethods } from "@/server/services/payment-methods/offer";
import { CHECKOUT_LIMIT } from "@/server/rate-limit/limits";
import { defineRoute } from "../route";

// POST /api/v1/invoice – create an invoice for an order
export const createInvoiceRoute = defineRoute({
  operationId: "createInvoice",
  method: "POST",
  path: "/invoice",
  summary: "Create an invoice",
  description:
    "An `open` invoice the payer settles on its `checkoutUrl` (or you, by recording payments with its id as `invoiceId`). " +
    "Emits `invoice.created`. Fulfil the order on `invoice.paid` (docs/invoices.md).",
  tags: ["Invoices"],
  auth: "api_key",
  permission: "invoices.write",
  body: createInvoiceInput,
  bodyExample: {
    amount: "19.99",
    currency: "EUR",
    orderId: "order-1042",
    description: "2 × Ethiopia Guji, 250 g",
    expiresIn: 3600,
    returnUrl: "https://acme.example/orders/1042",
    metadata: { channel: "web" },
  },
  responses: { 201: { description: "The invoice was created.", schema: invoiceSchema, example: EXAMPLE_OPEN_INVOICE } },
  errors: ["order_id_taken", "idempotency_key_reused", "idempotency_key_in_use"],
  // Only database work: the stored answer commits in the invoice's own transaction.
  idempotency: { store: "final", atomic: true },
  handler: async ({ ctx, body }) => ({ status: 201, body: await createInvoice({ ctx, input: body }) }),
});

// GET /api/v1/invoice – the merchant's invoices, newest first
export const listInvoicesRoute = defineRoute({
  operationId: "listInvoices",
  method: "GET",
  path: "/invoice",
  summary: "List invoices",
  description: "Newest first, cursor-paginated: pass `nextCursor` back as `cursor` until `hasMore` is false.",
  tags: ["Invoices"],
  auth: "api_key",
  permission: "invoices.read",
  query: listInvoicesInput,
  responses: {
    200: {
      description: "A page of invoices.",
      schema: invoiceListSchema,
      example: { data: [EXAMPLE_INVOICE], hasMore: true, nextCursor: EXAMPLE_CURSOR },
    },
  },
  errors: ["invalid_cursor"],
  handler: async ({ ctx, query }) => ({ status: 200, body: await listInvoices({ ctx, input: query }) }),
});

// GET /api/v1/invoice/{id} – one invoice with its payments
export const getInvoiceRoute = defineRoute({
  operationId: "getInvoice",
  method: "GET",
  path: "/invoice/{id}",
  summary: "Get an invoice",
  description: "The invoice as it is now (past `expiresAt` and unpaid, it reads `expired` even before the sweep writes it), with its payments.",
  tags: ["Invoices"],
  auth: "api_key",
  permission: "invoices.read",
  params: invoiceIdInput,
  responses: {
    200: {
      description: "The invoice.",
      schema: invoiceWithPaymentsSchema,
      example: { ...EXAMPLE_INVOICE, payments: [{ ...EXAMPLE_PAYMENT, invoiceId: EXAMPLE_INVOICE.id }] },
    },
  },
  errors: ["not_found"],
  handler: async ({ ctx, params }) => ({ status: 200, body: await getInvoice({ ctx, input: params }) }),
});

// POST /api/v1/invoice/{id}/void – void an open or expired invoice
export const voidInvoiceRoute = defineRoute({
  operationId: "voidInvoice",
  method: "POST",
  path: "/invoice/{id}/void",
  summary: "Void an invoice",
  description: "Only from `open` or `expired`. Frees its `orderId` and refuses further payments. Emits `invoice.voided`.",
  tags: ["Invoices"],
  auth: "api_key",
  permission: "invoices.write",
  params: invoiceIdInput,
  responses: {
    200: {
      description: "The voided invoice.",
      schema: invoiceSchema,
      example: { ...EXAMPLE_OPEN_INVOICE, status: "void", voidedAt: EXAMPLE_INVOICE.updatedAt },
    },
  },
  errors: ["not_found", "invalid_transition", "idempotency_key_reused", "idempotency_key_in_use"],
  idempotency: { store: "final", atomic: true },
  handler: async ({ ctx, params }) => ({ status: 200, body: await voidInvoice({ ctx, input: params }) }),
});

// GET /api/v1/checkout/{id} – the public checkout page's live status (no key: the invoice id is the capability)
export const getCheckoutRoute = defineRoute({
  operationId: "getCheckout",
  method: "GET",
  path: "/checkout/{id}",
  summary: "An invoice's public checkout status",
  description:
    "What the checkout page `/pay/{id}` shows and polls: amounts, status, countdown, the merchant's name and website, " +
    "the payment methods that can pay this invoice (with their QR payloads) while it is open, and the merchant's note; " +
    "nothing else of the merchant. Rate-limited per IP.",
  tags: ["Invoices"],
  auth: "none",
  rateLimit: CHECKOUT_LIMIT,
  params: invoiceIdInput,
  responses: {
    200: {
      description: "The checkout.",
      schema: checkoutSchema,
      example: {
        id: EXAMPLE_OPEN_INVOICE.id,
        merchantName: "Acme Coffee",
        merchantWebsite: "https://acme.example",
        livemode: true,
        description: EXAMPLE_OPEN_INVOICE.description,
        amount: EXAMPLE_OPEN_INVOICE.amount,
        currency: EXAMPLE_OPEN_INVOICE.currency,
        amountPaid: EXAMPLE_OPEN_INVOICE.amountPaid,
        amountPending: EXAMPLE_OPEN_INVOICE.amountPending,
        amountRefunded: EXAMPLE_OPEN_INVOICE.amountRefunded,
        amountRemaining: EXAMPLE_OPEN_INVOICE.amountRemaining,
        amountDue: EXAMPLE_OPEN_INVOICE.amountRemaining,
        status: "open",
        statusDetail: null,
        expiresAt: EXAMPLE_OPEN_INVOICE.expiresAt,
        paidAt: null,
        returnUrl: null,
        // USDC is not this EUR invoice's currency: the crypto method is not offered on it.
        paymentMethods: offeredMethods(EXAMPLE_PAYMENT_METHODS, {
          invoiceId: EXAMPLE_OPEN_INVOICE.id,
          currency: EXAMPLE_OPEN_INVOICE.currency,
          amountDue: EXAMPLE_OPEN_INVOICE.amountRemaining,
          merchantName: "Acme Coffee",
        }),
        paymentInstructions: "Questions about an order? Write to orders@acme.example.",
        serverTime: EXAMPLE_OPEN_INVOICE.createdAt,
      },
    },
  },
  errors: ["not_found"],
  handler: async ({ ctx, params }) => ({ status: 200, body: await getCheckout({ ctx, input: params }), headers: { "cache-control": "no-store" } }),
});

export const invoiceRoutes = [createInvoiceRoute, listInvoicesRoute, getInvoiceRoute, voidInvoiceRoute, getCheckoutRoute];
