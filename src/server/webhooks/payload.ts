import type { EventRow } from "@/server/db/schema";

/**
 * The webhook body: `{type, timestamp, data}` (docs/webhooks.md, "What we send"). Built from the stored event alone, so every retry
 * sends byte-for-byte the same body; only `webhook-timestamp` (and so the signature) changes per attempt.
 */
export function webhookBody(event: Pick<EventRow, "type" | "createdAt" | "data">): string {
  return JSON.stringify(webhookPayload(event));
}

/** The body as an object, as a delivery's detail shows it (services/webhooks/schemas.ts `webhookPayloadSchema`). */
export function webhookPayload(event: Pick<EventRow, "type" | "createdAt" | "data">) {
  return { type: event.type, timestamp: event.createdAt.toISOString(), data: event.data };
}
