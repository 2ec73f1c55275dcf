import { and, eq } from "drizzle-orm";
import type { Logger } from "pino";
import { newId } from "@/lib/ids";
import { queryRows } from "@/server/db/raw";
import { events } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import type { ClaimedDelivery } from "./claim";
import { sendWebhook, type AgentPool, type AttemptOutcome, type SendInput } from "./http-sender";
import { webhookBody } from "./payload";
import { honoursRetryAfter, nextRetryDelay, parseRetryAfter } from "./schedule";
import { loadSigningSecrets, openSigningSecrets } from "./secrets";
import type { WebhookSigningKey } from "./asymmetric";
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
  /** Keep-alive connections to reuse (the worker's pool); without one, every attempt opens its own. */
  agents?: AgentPool;
  /** Records attempts (the worker's batches them); without one, each is recorded by its own statement. */
  recorder?: AttemptRecorder;
}

export type DeliveryResult = "delivered" | "pending" | "failed" | "lease_lost";

/**
 * Makes one attempt of a claimed delivery and records it: the attempt row, and the delivery's next state
 * (`delivered`, `pending` at the next scheduled time, or `failed` once the schedule is exhausted — or at
 * once for a manual retry or a test send).
 */
export async function attemptDelivery(
  deps: DeliveryDeps,
  delivery: ClaimedDelivery,
  /** `sent`: called once the request is over (answered or failed), before the attempt is recorded. */
  hooks: { sent?: () => void } = {},
): Promise<{ result: DeliveryResult; outcome: AttemptOutcome }> {
  let event: Pick<typeof events.$inferSelect, "id" | "type" | "data" | "createdAt"> | null | undefined;
  let secrets: string[];
  if (delivery.prefetched) {
    // Read by the claim statement a moment ago.
    event = delivery.prefetched.event;
    secrets = openSigningSecrets(delivery.prefetched.secretCiphertexts, deps.authSecret);
  } else {
    [event] = await deps.db
      .select()
      .from(events)
      .where(and(eq(events.id, delivery.eventId), eq(events.merchantId, delivery.merchantId)));
    secrets = event ? await loadSigningSecrets(deps.db, { merchantId: delivery.merchantId, now: deps.now(), authSecret: deps.authSecret }) : [];
  }
  if (!event) throw new Error(`Delivery ${delivery.id} has no event`);
  if (secrets.length === 0) throw new Error(`Merchant ${delivery.merchantId} has no webhook secret`);

  const body = webhookBody(event);
  const sentAt = deps.now();
  const headers = signatureHeaders({ id: event.id, timestamp: Math.floor(sentAt.getTime() / 1000), body, secrets, signingKeys: deps.signingKeys });
  const outcome = await sendWebhook({ url: delivery.url, headers, body, allowPrivateTargets: deps.allowPrivateTargets, ...deps.send, agents: deps.agents });
  hooks.sent?.();
  const result = deps.recorder ? await deps.recorder.record(delivery, outcome, sentAt) : await recordAttempt(deps, delivery, outcome, sentAt);
  return { result, outcome };
}

/** Writes the attempt and moves the delivery on, fenced by the lease: a worker that lost its claim changes nothing. */
export async function recordAttempt(
  deps: Pick<DeliveryDeps, "db" | "log" | "now" | "schedule" | "random">,
  delivery: ClaimedDelivery,
  outcome: AttemptOutcome,
  sentAt: Date,
): Promise<DeliveryResult> {
  const [result] = await writeAttempts(deps, [planAttempt(deps, { delivery, outcome, sentAt })]);
  return result!;
}

interface PlannedAttempt {
  deliveryId: string;
  /** The delivery's state once this attempt counts (if its lease still holds). */
  next: "delivered" | "pending" | "failed";
  /** One element of the record statement's json input. */
  row: Record<string, unknown>;
}

/** Decides what an attempt does to its delivery (next state, next time) and lays out its record. */
function planAttempt(
  deps: Pick<DeliveryDeps, "now" | "schedule" | "random">,
  { delivery, outcome, sentAt }: { delivery: ClaimedDelivery; outcome: AttemptOutcome; sentAt: Date },
): PlannedAttempt {
  const now = deps.now();
  const attemptsMade = delivery.attemptCount + 1;
  let next: { status: "delivered" | "pending" | "failed"; nextAttemptAt: Date | null };
  if (outcome.ok) {
    next = { status: "delivered", nextAttemptAt: null };
  } else {
    const retryAfterMs = honoursRetryAfter(outcome.statusCode)
      ? parseRetryAfter(outcome.responseHeaders?.["retry-after"], now)
      : null;
    // Manual retries and test sends are single attempts asked for by a person, who sees the result;
    // only scheduled attempts follow the retry schedule.
    const delay =
      delivery.nextTrigger === "scheduled"
        ? nextRetryDelay({ schedule: deps.schedule, attemptsMade, retryAfterMs, random: deps.random })
        : null;
    next = delay === null ? { status: "failed", nextAttemptAt: null } : { status: "pending", nextAttemptAt: new Date(now.getTime() + delay) };
  }
  const recordedAt = now.toISOString();
  return {
    deliveryId: delivery.id,
    next: next.status,
    row: {
      delivery_id: delivery.id,
      merchant_id: delivery.merchantId,
      claimed_status: "delivering",
      lease: delivery.leaseExpiresAt.toISOString(),
      status: next.status,
      attempt_count: attemptsMade,
      next_attempt_at: next.nextAttemptAt?.toISOString() ?? null,
      last_status_code: outcome.statusCode,
      last_error: outcome.ok ? null : outcome.errorMessage,
      delivered_at: next.status === "delivered" ? recordedAt : null,
      failed_at: next.status === "failed" ? recordedAt : null,
      recorded_at: recordedAt,
      attempt_id: newId("attempt"),
      trigger: delivery.nextTrigger,
      queued_at: (delivery.nextAttemptAt ?? delivery.createdAt).toISOString(),
      sent_at: sentAt.toISOString(),
      status_code: outcome.statusCode,
      error_class: outcome.errorClass,
      error_message: outcome.errorMessage,
      latency_ms: outcome.latencyMs,
      response_headers: outcome.responseHeaders,
      response_body: outcome.responseBody,
    },
  };
}

/*
 * One statement for any number of attempts (it is atomic, as the transaction it replaces was): each moves its
 * delivery on only while the delivery is still `delivering` under the lease it was claimed with, and every
 * attempt is inserted whatever happened to its delivery (it was made either way). Returns the attempts whose
 * delivery moved.
 *
 * The status to match ('delivering') comes in with the input rather than as a literal: with the literal, the
 * planner may read the deliveries through the partial lease index (`status = 'delivering'`), whose entries
 * for every claim ever made stay until vacuum — it did, and each record walked tens of thousands of them.
 * This way the only path to a delivery is its primary key.
 */
const RECORD_SQL = `
with input as (
  select * from json_to_recordset($1::json) as r(
    delivery_id text, merchant_id text, claimed_status text, lease timestamptz, status text, attempt_count int, next_attempt_at timestamptz,
    last_status_code int, last_error text, delivered_at timestamptz, failed_at timestamptz, recorded_at timestamptz,
    attempt_id text, trigger text, queued_at timestamptz, sent_at timestamptz, status_code int, error_class text,
    error_message text, latency_ms int, response_headers jsonb, response_body text)
), moved as (
  update webhook_deliveries d
  set status = i.status, attempt_count = i.attempt_count, next_attempt_at = i.next_attempt_at, next_trigger = 'scheduled',
      lease_expires_at = null, last_status_code = i.last_status_code, last_error = i.last_error,
      delivered_at = i.delivered_at, failed_at = i.failed_at, updated_at = i.recorded_at
  from input i
  where d.id = i.delivery_id and d.merchant_id = i.merchant_id and d.status = i.claimed_status and d.lease_expires_at = i.lease
  returning i.attempt_id
), recorded as (
  insert into delivery_attempts (id, delivery_id, merchant_id, trigger, queued_at, sent_at, status_code, error_class,
                                 error_message, latency_ms, response_headers, response_body, created_at)
  select attempt_id, delivery_id, merchant_id, trigger, queued_at, sent_at, status_code, error_class,
         error_message, latency_ms, response_headers, response_body, recorded_at
  from input
)
select attempt_id from moved`;

async function writeAttempts(deps: Pick<DeliveryDeps, "db" | "log">, planned: readonly PlannedAttempt[]): Promise<DeliveryResult[]> {
  const rows = await queryRows<{ attempt_id: string }>(deps.db, RECORD_SQL, [JSON.stringify(planned.map((attempt) => attempt.row))]);
  const moved = new Set(rows.map((row) => row.attempt_id));
  return planned.map((attempt) => {
    if (moved.has(attempt.row.attempt_id as string)) return attempt.next;
    deps.log.warn({ deliveryId: attempt.deliveryId }, "webhook delivery lease lost before the attempt was recorded");
    return "lease_lost";
  });
}

export interface AttemptRecorder {
  /** Records an attempt (as `recordAttempt` does); resolves once it is committed. */
  record(delivery: ClaimedDelivery, outcome: AttemptOutcome, sentAt: Date): Promise<DeliveryResult>;
}

/**
 * Records attempts in batches: while one batch's statement runs, the attempts finishing meanwhile queue up and
 * go in the next (at most `maxBatch` a statement). No attempt waits for a timer: under light load a batch is
 * one attempt (or the few that ended in the same tick). Should a batch fail, its attempts are recorded one
 * by one, so one bad record fails alone.
 */
export function createAttemptRecorder(
  deps: Pick<DeliveryDeps, "db" | "log" | "now" | "schedule" | "random">,
  options: { maxBatch?: number } = {},
): AttemptRecorder {
  const maxBatch = options.maxBatch ?? 64;
  type Queued = { planned: PlannedAttempt; resolve: (result: DeliveryResult) => void; reject: (error: unknown) => void };
  const queue: Queued[] = [];
  let flushing = false;

  const flush = async () => {
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, maxBatch);
        try {
          const results = await writeAttempts(deps, batch.map((entry) => entry.planned));
          batch.forEach((entry, i) => entry.resolve(results[i]!));
        } catch (error) {
          if (batch.length === 1) {
            batch[0]!.reject(error);
            continue;
          }
          await Promise.all(
            batch.map((entry) =>
              writeAttempts(deps, [entry.planned]).then(([result]) => entry.resolve(result!), entry.reject),
            ),
          );
        }
      }
    } finally {
      flushing = false;
    }
  };

  return {
    record(delivery, outcome, sentAt) {
      return new Promise<DeliveryResult>((resolve, reject) => {
        queue.push({ planned: planAttempt(deps, { delivery, outcome, sentAt }), resolve, reject });
        if (!flushing) {
          // Start once the current tick is over, so attempts ending together share the first statement too.
          flushing = true;
          queueMicrotask(() => void flush());
        }
      });
    },
  };
}
