/**
 * The Merchant Payments SDK: a typed REST client (openapi-fetch over the types generated from the OpenAPI
 * document, ./schema.ts) and `verifyWebhook` for the signed events the service posts to your webhook URL.
 */
import createFetchClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { components, operations, paths, webhooks } from "./schema";

export type { components, operations, paths, webhooks };
export { verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookEventType, type VerifiedWebhook } from "./verify-webhook";

export type MerchantPaymentsClient = Client<paths>;

export interface CreateClientOptions extends Omit<ClientOptions, "baseUrl"> {
  /** `sk_live_…`; omit it for the public routes (register, health, checkout, directory). */
  apiKey?: string;
  /** Where the service runs, without `/api/v1`. Default `http://localhost:3000`. */
  baseUrl?: string;
}

/**
 * A client for every route: `client.GET("/payment/{id}", { params: { path: { id } } })` answers
 * `{ data, error, response }`, with `data` typed by the route's 2xx schema and `error` by its problem+json.
 */
export function createClient(options: CreateClientOptions = {}): MerchantPaymentsClient {
  const { apiKey, baseUrl = "http://localhost:3000", headers, ...rest } = options;
  return createFetchClient<paths>({
    ...rest,
    baseUrl: `${baseUrl.replace(/\/+$/, "")}/api/v1`,
    headers: { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...headers },
  });
}

/** A schema of the API by name: `Schema<"Payment">`. */
export type Schema<Name extends keyof components["schemas"]> = components["schemas"][Name];
