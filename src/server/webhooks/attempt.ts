import { and, inArray } from "drizzle-orm";
import type { Logger } from "pino";
import { events, type EventRow } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import type { WebhookSigningKey } from "./asymmetric";
import type { BreakerOptions } from "./breaker";
import type { ClaimedDelivery } from "./claim";
import { sendWebhook, type AgentPool, type AttemptOutcome, type SendInput } from "./http-sender";
import { webhookBody } from "./payload";
import { createAttemptRecorder, type AttemptRecorder, type DeliveryResult } from "./record";
import { loadSigningSecretsOf } from "./secrets";
import { signatureHeaders } from "./signing";

/** What an attempt needs from the process: the database, configuration, clock and network knobs. */
export interface DeliveryDeps {
  db: Executor;
  log: Logger;
  now: () => Date;
  schedule: readonly number[];
  allowPrivateTargets: boolean;
  authSecret: string;
  /** The service's Ed25519 keys for `v1a` signatures, current first (none when not configured). */
  signingKeys?: readonly WebhookSigningKey[];
  /** Network options passed to the sender (tests: a resolver, a CA, shorter timeouts). */
  send?: Pick<SendInput, "resolve" | "ca" | "connectTimeoutMs" | "totalTimeoutMs">;
  /** Jitter source; tests pin it. */
  random?: () => number;
  /** The endpoint breaker's threshold and cool-down (breaker.ts); tests shorten them. */
  breaker?: BreakerOptions;
  /** Keep-alive connections to reuse (the worker's); without one, every attempt opens its own. */
  agents?: AgentPool;
  /** Records attempts (the worker's batches them); without one, the attempt is recorded on its own. */
  recorder?: AttemptRecorder;
}

/** A claimed delivery with what its request is made of: the event, and the merchant's signing secrets. */
export interface LoadedDelivery {
  delivery: ClaimedDelivery;
  event: Pick<EventRow, "id" | "type" | "data" | "createdAt">;
  /** Plaintext, current first; never logged. */
  secrets: string[];
}

/**
 * Reads the events and signing secrets of claimed deliveries, two queries for any number of them. Secrets are
 * read after the claim, so a rotation committed before it is what the attempt signs with. A delivery without
 * its event or a secret cannot be sent: it is left out (logged), and its lease runs out.
 */
export async function loadDeliveries(
  deps: Pick<DeliveryDeps, "db" | "log" | "now" | "authSecret">,
  deliveries: readonly ClaimedDelivery[],
): Promise<LoadedDelivery[]> {
  if (deliveries.length === 0) return [];
  const merchantIds = deliveries.map((delivery) => delivery.merchantId);
  const [eventRows, secrets] = await Promise.all([
    deps.db
      .select({ id: events.id, merchantId: events.merchantId, type: events.type, data: events.data, createdAt: events.createdAt })
      .from(events)
      .where(and(inArray(events.id, deliveries.map((delivery) => delivery.eventId)), inArray(events.merchantId, merchantIds))),
    loadSigningSecretsOf(deps.db, { merchantIds, now: deps.now(), authSecret: deps.authSecret }),
  ]);
  const eventsById = new Map(eventRows.map((event) => [event.id, event]));
  const loaded: LoadedDelivery[] = [];
  for (const delivery of deliveries) {
    const event = eventsById.get(delivery.eventId);
    const merchantSecrets = secrets.get(delivery.merchantId) ?? [];
    if (event && event.merchantId === delivery.merchantId && merchantSecrets.length > 0) {
      loaded.push({ delivery, event, secrets: merchantSecrets });
    } else {
      deps.log.error({ deliveryId: delivery.id, hasEvent: Boolean(event), hasSecret: merchantSecrets.length > 0 }, "webhook delivery cannot be sent");
    }
  }
  return loaded;
}

/**
 * Makes one attempt of a claimed delivery and records it: the attempt row, the delivery's next state
 * (`delivered`, `pending` at the next scheduled time, or `failed` once the schedule is exhausted — or at
 * once for a manual retry or a test send), and its endpoint's breaker.
 */
export async function attemptDelivery(
  deps: DeliveryDeps,
  { delivery, event, secrets }: LoadedDelivery,
): Promise<{ result: DeliveryResult; outcome: AttemptOutcome }> {
  const body = webhookBody(event);
  const sentAt = deps.now();
  const headers = signatureHeaders({ id: event.id, timestamp: Math.floor(sentAt.getTime() / 1000), body, secrets, signingKeys: deps.signingKeys });
  const outcome = await sendWebhook({ url: delivery.url, headers, body, allowPrivateTargets: deps.allowPrivateTargets, ...deps.send, agents: deps.agents });
  const recorder = deps.recorder ?? createAttemptRecorder(deps);
  const result = await recorder.record(delivery, outcome, sentAt);
  return { result, outcome };
}
