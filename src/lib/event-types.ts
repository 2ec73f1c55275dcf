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
  "refund.created",
  "refund.claimed",
  "refund.succeeded",
  "refund.failed",
  "refund.canceled",
] as const;
export type EventType = (typeof eventTypes)[number];

/**
 * The event of a test send (`POST webhook/test`, the dashboard's "Send test"). A delivery is a test send when its
 * event is of this type — for its whole life, whatever triggers its next attempt (a retry is `manual`): a test
 * send and its retries go to a URL the merchant chose for the test, so they never count towards an endpoint's
 * health, breaker or disable, and are never recovered (docs/webhooks.md, "Testing your endpoint").
 */
export const TEST_SEND_EVENT = "webhook.test" satisfies EventType;

export function isTestSendEvent(type: string): boolean {
  return type === TEST_SEND_EVENT;
}

/**
 * The subscription the API reference's examples show (an endpoint, a profile update, a bulk retry's filter):
 * examples are lists of event types too, so they come from here like every other (tests/unit/event-catalogue.test.ts).
 */
export const EXAMPLE_SUBSCRIPTION = ["invoice.paid", "payment.confirmed"] as const satisfies readonly EventType[];
