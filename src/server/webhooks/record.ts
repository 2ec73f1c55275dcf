import { inArray } from "drizzle-orm";
import type { Logger } from "pino";
import { isTestSendEvent } from "@/lib/event-types";
import { newId } from "@/lib/ids";
import { deliveryAttempts, webhookDeliveries } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import { moveAttemptedDeliveries, type AttemptedDelivery } from "@/server/db/sql/record-deliveries";
import { withTransaction } from "@/server/db/transaction";
import { BREAKER_DEFAULTS, isEndpointFailure, recordEndpointOutcomes, type BreakerOptions } from "./breaker";
import type { Claim, ClaimedDelivery } from "./claim";
import { endpointKeyOf } from "./endpoint-key";
import { DEFAULT_DISABLE_AFTER_MS, recordEndpointHealth, type EndpointDisabler } from "./health";
import type { AttemptOutcome } from "./http-sender";
import { honoursRetryAfter, nextRetryDelay, parseRetryAfter } from "./schedule";

export type DeliveryResult = "delivered" | "pending" | "failed" | "lease_lost";

export interface RecorderDeps {
  db: Executor;
  log: Logger;
  now: () => Date;
  schedule: readonly number[];
  random?: () => number;
  breaker?: BreakerOptions;
  /** How long an endpoint may fail every attempt before it is disabled (health.ts). */
  disableAfterMs?: number;
  /** What disabling an endpoint does (health.ts). */
  disableEndpoint: EndpointDisabler;
}

export interface AttemptRecorder {
  /** Records an attempt of a claim; resolves once it is committed, with what became of the delivery. */
  record(claim: Pick<Claim, "delivery" | "event">, outcome: AttemptOutcome, sentAt: Date): Promise<DeliveryResult>;
}

interface PlannedAttempt {
  delivery: ClaimedDelivery;
  outcome: AttemptOutcome;
  /** Whether it tells anything about its endpoint: a test send (and its retries) never does. */
  judgesEndpoint: boolean;
  /** The delivery's state once this attempt counts (if its lease still holds). */
  next: AttemptedDelivery["next"];
  attempt: typeof deliveryAttempts.$inferInsert;
}

/** Decides what an attempt does to its delivery (next state, next time) and lays out its attempt row. */
function planAttempt(deps: RecorderDeps, { delivery, event }: Pick<Claim, "delivery" | "event">, outcome: AttemptOutcome, sentAt: Date): PlannedAttempt {
  const now = deps.now();
  const attemptCount = delivery.attemptCount + 1;
  let status: "delivered" | "pending" | "failed" = "delivered";
  let nextAttemptAt: Date | null = null;
  if (!outcome.ok) {
    const retryAfterMs = honoursRetryAfter(outcome.statusCode) ? parseRetryAfter(outcome.responseHeaders?.["retry-after"], now) : null;
    // Manual retries and test sends are single attempts asked for by a person, who sees the result;
    // only scheduled attempts follow the retry schedule.
    const delay =
      delivery.nextTrigger === "scheduled" ? nextRetryDelay({ schedule: deps.schedule, attemptsMade: attemptCount, retryAfterMs, random: deps.random }) : null;
    status = delay === null ? "failed" : "pending";
    nextAttemptAt = delay === null ? null : new Date(now.getTime() + delay);
  }
  return {
    delivery,
    outcome,
    judgesEndpoint: !isTestSendEvent(event.type),
    next: {
      status,
      attemptCount,
      nextAttemptAt,
      lastStatusCode: outcome.statusCode,
      lastError: outcome.ok ? null : outcome.errorMessage,
      deliveredAt: status === "delivered" ? now : null,
      failedAt: status === "failed" ? now : null,
    },
    attempt: {
      id: newId("attempt"),
      deliveryId: delivery.id,
      merchantId: delivery.merchantId,
      eventCreatedAt: delivery.eventCreatedAt,
      trigger: delivery.nextTrigger,
      queuedAt: delivery.nextAttemptAt ?? delivery.createdAt,
      sentAt,
      statusCode: outcome.statusCode,
      errorClass: outcome.errorClass,
      errorMessage: outcome.errorMessage,
      latencyMs: outcome.latencyMs,
      responseHeaders: outcome.responseHeaders,
      responseBody: outcome.responseBody,
      createdAt: now,
    },
  };
}

/*
 * One transaction for a batch of attempts: each moves its delivery on only while the delivery is still
 * `delivering` under the lease it was claimed with (a worker that lost its claim changes nothing: one statement for
 * the batch, db/sql/record-deliveries.ts), every attempt is inserted whatever happened to its delivery (it was made
 * either way), and the endpoints' breakers move. A failed attempt holds its endpoint's slot until this commits
 * (worker.ts).
 */
async function writeAttempts(deps: RecorderDeps, planned: readonly PlannedAttempt[]): Promise<DeliveryResult[]> {
  const now = deps.now();
  const moved = await withTransaction(deps.db, async (tx) => {
    const movedIds = await moveAttemptedDeliveries(
      tx,
      planned.map(({ delivery, next }) => ({ ...delivery, next })),
      now,
    );
    // A delivery that did not move lost its lease, or was deleted meanwhile (its merchant was): the attempt of a
    // deleted one has nothing to belong to and is dropped rather than fail the batch (the lock keeps the others).
    const stale = planned.filter((entry) => !movedIds.has(entry.delivery.id)).map((entry) => entry.delivery.id);
    const existing = new Set(movedIds);
    if (stale.length > 0) {
      const rows = await tx.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(inArray(webhookDeliveries.id, stale)).for("key share");
      rows.forEach((row) => existing.add(row.id));
    }
    const attempts = planned.filter((entry) => existing.has(entry.delivery.id)).map((entry) => entry.attempt);
    if (attempts.length > 0) await tx.insert(deliveryAttempts).values(attempts);
    // Test sends and their retries go to a URL the merchant typed for the test, not necessarily the endpoint's:
    // they do not count (decided by the event, not by the trigger, which a retry makes `manual`).
    const counted = planned.filter((entry) => entry.judgesEndpoint);
    if (counted.length > 0) {
      await recordEndpointOutcomes(
        tx,
        counted.map(({ delivery, outcome }) => ({
          endpoint: endpointKeyOf(delivery),
          failed: isEndpointFailure(outcome),
          counting: delivery.breakerCounting !== false,
        })),
        { now, options: deps.breaker ?? BREAKER_DEFAULTS },
      );
      await recordEndpointHealth(
        tx,
        counted.map(({ delivery, outcome }) => ({ endpointId: delivery.endpointId, outcome })),
        { now, disableAfterMs: deps.disableAfterMs ?? DEFAULT_DISABLE_AFTER_MS, disableEndpoint: deps.disableEndpoint },
      );
    }
    return movedIds;
  });
  return planned.map((entry) => {
    if (moved.has(entry.delivery.id)) return entry.next.status as DeliveryResult;
    deps.log.warn({ deliveryId: entry.delivery.id }, "webhook delivery lease lost before the attempt was recorded");
    return "lease_lost";
  });
}

/**
 * Records attempts in batches: while one batch's transaction runs, the attempts finishing meanwhile queue up
 * and go in the next (at most `maxBatch` a transaction). No attempt waits for a timer: under light load a batch
 * is one attempt (or the few that ended in the same tick). A batch that fails (the database is down) fails all
 * its attempts; their deliveries stay claimed until the lease runs out and are then attempted again.
 */
export function createAttemptRecorder(deps: RecorderDeps, options: { maxBatch?: number } = {}): AttemptRecorder {
  const maxBatch = options.maxBatch ?? 64;
  type Queued = { planned: PlannedAttempt; resolve: (result: DeliveryResult) => void; reject: (error: unknown) => void };
  const queue: Queued[] = [];
  let flushing = false;

  const flush = async () => {
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, maxBatch);
        await writeAttempts(
          deps,
          batch.map((entry) => entry.planned),
        ).then(
          (results) => batch.forEach((entry, i) => entry.resolve(results[i]!)),
          (error: unknown) => batch.forEach((entry) => entry.reject(error)),
        );
      }
    } finally {
      flushing = false;
    }
  };

  return {
    record(claim, outcome, sentAt) {
      return new Promise<DeliveryResult>((resolve, reject) => {
        queue.push({ planned: planAttempt(deps, claim, outcome, sentAt), resolve, reject });
        if (!flushing) {
          // Start once the current tick is over, so attempts ending together share the first transaction too.
          flushing = true;
          queueMicrotask(() => void flush());
        }
      });
    },
  };
}
