/**
 * The webhook event catalogue (docs/webhooks.md, "Event catalogue"): a plain module, so the table that stores
 * events (db/schema/events.ts), the services that emit them and the OpenAPI document share it without one
 * importing another.
 */
export const eventTypes = [
  "payment.pending",
  "payment.confirmed",
  "payment.failed",
  "keys.published",
  "webhook.test",
  "invoice.created",
  "invoice.payment_received",
  "invoice.payment_failed",
  "invoice.processing",
  "invoice.paid",
  "invoice.expired",
  "invoice.voided",
  "webhook.endpoint_disabled",
] as const;
export type EventType = (typeof eventTypes)[number];
