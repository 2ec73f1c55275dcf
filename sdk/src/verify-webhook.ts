import { Webhook, WebhookVerificationError } from "standardwebhooks";
import type { webhooks } from "./schema";

export { WebhookVerificationError };

export type WebhookEventType = keyof webhooks;

/** The body of a webhook of each type, `{type, timestamp, data}`, as the OpenAPI `webhooks` section declares it. */
export type WebhookEvent = {
  [Type in WebhookEventType]: webhooks[Type]["post"]["requestBody"]["content"]["application/json"];
}[WebhookEventType];

/** A verified event and its `webhook-id` (the event id: the same on every retry, so dedupe on it). */
export type VerifiedWebhook = WebhookEvent & { id: string };

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

/**
 * Verifies a webhook with the Standard Webhooks library (signature over the raw body, ±5 min timestamp window,
 * any of the signatures sent during a secret rotation) and returns the typed event; narrow it on `type`.
 * Throws `WebhookVerificationError` when it does not verify: answer 4xx then, and never act on the body.
 * Pass the body exactly as received (a re-serialised JSON object no longer matches its signature).
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: HeaderSource, secret: string): VerifiedWebhook {
  const pick = (name: string) => headerValue(headers, name);
  const signed = {
    "webhook-id": pick("webhook-id"),
    "webhook-timestamp": pick("webhook-timestamp"),
    "webhook-signature": pick("webhook-signature"),
  };
  const body = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
  const event = new Webhook(secret).verify(body, signed) as WebhookEvent;
  return { ...event, id: signed["webhook-id"] };
}

function headerValue(headers: HeaderSource, name: string): string {
  if (headers instanceof Headers) return headers.get(name) ?? "";
  const value = headers[name] ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}
