import { EXAMPLE_SUBSCRIPTION } from "@/lib/event-types";
import { z } from "zod";
import { getMerchant } from "@/server/services/merchants/get";
import { registerMerchant } from "@/server/services/merchants/register";
import {
  merchantSchema,
  registerMerchantInput,
  registerMerchantResult,
  updateMerchantInput,
} from "@/server/services/merchants/schemas";
import { updateMerchant } from "@/server/services/merchants/update";
import { getPaymentMethods } from "@/server/services/payment-methods/get";
import { paymentMethodsSchema, setPaymentMethodsInput } from "@/server/services/payment-methods/schemas";
import { setPaymentMethods } from "@/server/services/payment-methods/set";
import { EXAMPLE_API_KEY, EXAMPLE_MERCHANT, EXAMPLE_PAYMENT_METHODS, EXAMPLE_WEBHOOK_SECRET } from "@/server/openapi/examples";
import { PROFILE_WEBHOOK_SETTINGS } from "@/server/auth/permissions";
import { defineRoute } from "../route";
import { REGISTER_LIMIT } from "@/server/rate-limit/limits";

const merchantParams = z.object({ id: z.string().max(64).describe("The merchant id (`mer_…`): your own.") });

// POST /api/v1/merchant/register – create a merchant and its first credentials
export const registerMerchantRoute = defineRoute({
  operationId: "registerMerchant",
  method: "POST",
  path: "/merchant/register",
  summary: "Register a merchant",
  description:
    "Creates a merchant with a dashboard login, its first API key and its webhook signing secret. " +
    "The API key is shown only in this response: store it now. Limited to 10 an hour per client IP.",
  tags: ["Merchants"],
  auth: "none",
  rateLimit: REGISTER_LIMIT,
  body: registerMerchantInput,
  bodyExample: {
    name: "Acme Coffee",
    email: "owner@acme.example",
    password: "correct horse battery staple",
    website: "https://acme.example",
    webhookUrl: "https://acme.example/webhooks/payments",
  },
  responses: {
    201: {
      description: "The merchant and its credentials.",
      schema: registerMerchantResult,
      example: {
        merchant: EXAMPLE_MERCHANT,
        apiKey: EXAMPLE_API_KEY,
        webhookSecret: EXAMPLE_WEBHOOK_SECRET,
      },
    },
  },
  errors: ["email_taken", "rate_limited", "webhook_url_rejected"],
  handler: async ({ ctx, body }) => ({ status: 201, body: await registerMerchant({ ctx, input: body }) }),
});

// GET /api/v1/merchant/{id} – the merchant's own profile
export const getMerchantRoute = defineRoute({
  operationId: "getMerchant",
  method: "GET",
  path: "/merchant/{id}",
  summary: "Get your merchant profile",
  description: "Only your own merchant: any other id answers 404.",
  tags: ["Merchants"],
  auth: "api_key",
  permission: "merchant_profile.read",
  params: merchantParams,
  responses: { 200: { description: "The merchant.", schema: merchantSchema, example: EXAMPLE_MERCHANT } },
  errors: ["not_found"],
  handler: async ({ ctx, params }) => ({ status: 200, body: await getMerchant({ ctx, input: { id: params.id } }) }),
});

// PUT /api/v1/merchant/{id} – update name, website, webhook URL and subscribed event types
export const updateMerchantRoute = defineRoute({
  operationId: "updateMerchant",
  method: "PUT",
  path: "/merchant/{id}",
  summary: "Update your merchant profile",
  description:
    "Absent fields are left as they are; `null` clears `website` or `webhookUrl`. `webhookEvents` replaces " +
    "the subscribed event types. Unknown fields are refused. The webhook URL must pass the SSRF checks. " +
    "Live keys only: a test key gets 403 `forbidden` (docs/test-mode.md).",
  tags: ["Merchants"],
  auth: "api_key",
  permission: "merchant_profile.write",
  alsoNeeds: PROFILE_WEBHOOK_SETTINGS,
  params: merchantParams,
  body: updateMerchantInput,
  bodyExample: { webhookUrl: "https://acme.example/webhooks/payments", webhookEvents: [...EXAMPLE_SUBSCRIPTION] },
  responses: {
    200: {
      description: "The updated merchant.",
      schema: merchantSchema,
      example: { ...EXAMPLE_MERCHANT, webhookEvents: [...EXAMPLE_SUBSCRIPTION] },
    },
  },
  errors: ["not_found", "forbidden", "webhook_url_rejected"],
  handler: async ({ ctx, params, body }) => ({
    status: 200,
    body: await updateMerchant({ ctx, input: { ...body, id: params.id } }),
  }),
});

// GET /api/v1/merchant/{id}/payment-methods – the methods payers see on checkout pages, of the key's mode
export const getPaymentMethodsRoute = defineRoute({
  operationId: "getPaymentMethods",
  method: "GET",
  path: "/merchant/{id}/payment-methods",
  summary: "List your payment methods",
  description:
    "The bank transfer, crypto and processor-link methods your invoices' checkout pages offer, in their order. " +
    "Mode data: a test key reads the test-mode list, which test invoices show (docs/test-mode.md).",
  tags: ["Merchants"],
  auth: "api_key",
  permission: "merchant_profile.read",
  params: merchantParams,
  responses: { 200: { description: "The methods.", schema: paymentMethodsSchema, example: { livemode: true, methods: EXAMPLE_PAYMENT_METHODS } } },
  errors: ["not_found"],
  handler: async ({ ctx, params }) => ({ status: 200, body: await getPaymentMethods({ ctx, input: { id: params.id } }) }),
});

// PUT /api/v1/merchant/{id}/payment-methods – replace the methods payers see on checkout pages
export const setPaymentMethodsRoute = defineRoute({
  operationId: "setPaymentMethods",
  method: "PUT",
  path: "/merchant/{id}/payment-methods",
  summary: "Replace your payment methods",
  description:
    "Replaces the key's mode's list whole, in the order given (at most 10). Each field is checked: IBAN check digits " +
    "and country format, BIC, the asset against the network's catalogue, the address with its network's checksum " +
    "(Bitcoin base58check/bech32, Ethereum EIP-55 when mixed-case, Solana 32-byte base58), https links; every " +
    "failing field is named in `errors[].path`. The profile's `paymentInstructions` stays, shown under the methods.",
  tags: ["Merchants"],
  auth: "api_key",
  permission: "merchant_profile.write",
  params: merchantParams,
  body: setPaymentMethodsInput,
  bodyExample: { methods: EXAMPLE_PAYMENT_METHODS },
  responses: { 200: { description: "The methods as stored.", schema: paymentMethodsSchema, example: { livemode: true, methods: EXAMPLE_PAYMENT_METHODS } } },
  errors: ["not_found"],
  handler: async ({ ctx, params, body }) => ({
    status: 200,
    body: await setPaymentMethods({ ctx, input: { ...body, id: params.id } }),
  }),
});

export const merchantRoutes = [registerMerchantRoute, getMerchantRoute, updateMerchantRoute, getPaymentMethodsRoute, setPaymentMethodsRoute];
