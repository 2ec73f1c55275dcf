import { registerMerchant } from "@/server/services/merchants/register";
import { registerMerchantInput, registerMerchantResult } from "@/server/services/merchants/schemas";
import { defineRoute } from "../route";

// POST /api/v1/merchant/register – create a merchant and its first credentials
export const registerMerchantRoute = defineRoute({
  operationId: "registerMerchant",
  method: "POST",
  path: "/merchant/register",
  summary: "Register a merchant",
  description:
    "Creates a merchant with a dashboard login, its first API key and its webhook signing secret. " +
    "The API key is shown only in this response: store it now.",
  tags: ["Merchants"],
  auth: "none",
  body: registerMerchantInput,
  responses: { 201: { description: "The merchant and its credentials.", schema: registerMerchantResult } },
  errors: ["email_taken", "rate_limited", "webhook_url_rejected"],
  handler: async ({ ctx, body }) => ({ status: 201, body: await registerMerchant({ ctx, input: body }) }),
});

export const merchantRoutes = [registerMerchantRoute];
