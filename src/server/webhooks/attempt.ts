import type { Logger } from "pino";
import type { Executor } from "@/server/db/types";
import { observeWebhookAttempt } from "@/server/metrics/observe";
import { linksTo, withSpan } from "@/server/tracing/span";
import type { WebhookSigningKey } from "@/server/crypto/webhook-signing-key";
import type { BreakerOptions } from "./breaker";
import type { Claim } from "./claim";
import type { EndpointDisabler } from "./health";
import { sendWebhook, type AgentPool, type AttemptOutcome, type SendInput } from "./http-sender";
import { webhookBody } from "./payload";
import { createAttemptRecorder, type AttemptRecorder, type DeliveryResult } from "./record";
import { loadSigningSecretsOf, openSigningSecrets } from "./secrets";
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
  /** How long an endpoint may fail every attempt before it is disabled (health.ts). */
  disableAfterMs?: number;
  /** What disabling an endpoint does: a service, given by the process (health.ts). */
  disableEndpoint: EndpointDisabler;
  /** Keep-alive connections to reuse (the worker's); without one, every attempt opens its own. */
  agents?: AgentPool;
  /** Records attempts (the worker's batches them); without one, the attempt is recorded on its own. */
  recorder?: AttemptRecorder;
}

/** A claimed delivery with what its request is made of: the event, and its endpoint's signing secrets. */
export interface LoadedDelivery extends Claim {
  /** Plaintext, current first; never logged. */
  secrets: string[];
}

/**
 * Adds the endpoints' signing secrets to claimed deliveries: opened from those the claim read (the worker's), else
 * read in one query for any number of them. Either way read after the claim, so a rotation committed before it is
 * what the attempt signs with. A delivery whose endpoint has no secret cannot be sent: it is left out (logged), and
 * its lease runs out.
 */
export async function withSigningSecrets(deps: Pick<DeliveryDeps, "db" | "log" | "now" | "authSecret">, claims: readonly Claim[]): Promise<LoadedDelivery[]> {
  const unread = claims.filter((claim) => !claim.sealedSecrets).map(({ delivery }) => delivery.endpointId);
  const secrets = unread.length > 0 ? await loadSigningSecretsOf(deps.db, { endpointIds: unread, now: deps.now(), authSecret: deps.authSecret }) : new Map<string, string[]>();
  return claims.flatMap((claim) => {
    const endpointSecrets = claim.sealedSecrets ? openSigningSecrets(claim.sealedSecrets, deps.authSecret) : (secrets.get(claim.delivery.endpointId) ?? []);
    if (endpointSecrets.length > 0) return [{ ...claim, secrets: endpointSecrets }];
    deps.log.error({ deliveryId: claim.delivery.id }, "webhook delivery cannot be signed: its endpoint has no secret");
    return [];
  });
}

/**
 * Makes one attempt of a claimed delivery and records it: the attempt row, the delivery's next state
 * (`delivered`, `pending` at the next scheduled time, or `failed` once the schedule is exhausted — or at
 * once for a manual retry or a test send), and its endpoint's breaker.
 */
export function attemptDelivery(deps: DeliveryDeps, loaded: LoadedDelivery): Promise<{ result: DeliveryResult; outcome: AttemptOutcome }> {
  // A trace of its own, linked to the request whose transaction wrote the delivery (docs/operations.md, "Traces").
  const attributes = { "event.id": loaded.event.id, "event.type": loaded.event.type, "webhook.delivery_id": loaded.delivery.id, "webhook.attempt": loaded.delivery.attemptCount + 1 };
  return withSpan("webhook.attempt", { kind: "consumer", root: true, links: linksTo(loaded.delivery.traceParent), attributes }, async (span) => {
    const attempted = await attempt(deps, loaded);
    span?.setAttributes({ "webhook.result": attempted.result, "http.response.status_code": attempted.outcome.statusCode ?? 0 });
    return attempted;
  });
}

async function attempt(deps: DeliveryDeps, loaded: LoadedDelivery): Promise<{ result: DeliveryResult; outcome: AttemptOutcome }> {
  const { delivery, event, secrets } = loaded;
  const body = webhookBody(event);
  const sentAt = deps.now();
  const headers = signatureHeaders({ id: event.id, timestamp: Math.floor(sentAt.getTime() / 1000), body, secrets, signingKeys: deps.signingKeys });
  const outcome = await sendWebhook({ url: delivery.url, headers, body, allowPrivateTargets: deps.allowPrivateTargets, ...deps.send, agents: deps.agents });
  const recorder = deps.recorder ?? createAttemptRecorder(deps);
  const result = await recorder.record(loaded, outcome, sentAt);
  observeWebhookAttempt({ result, errorClass: outcome.errorClass, dueAt: delivery.nextAttemptAt ?? delivery.createdAt, sentAt, first: delivery.attemptCount === 0 });
  return { result, outcome };
}
