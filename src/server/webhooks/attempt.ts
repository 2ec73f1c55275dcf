import { and, eq } from "drizzle-orm";
import type { Logger } from "pino";
import { newId } from "@/lib/ids";
import { deliveryAttempts, events, webhookDeliveries } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import type { Executor } from "@/server/db/types";
import type { ClaimedDelivery } from "./claim";
import { sendWebhook, type AttemptOutcome, type SendInput } from "./http-sender";
import { webhookBody } from "./payload";
import { honoursRetryAfter, nextRetryDelay, parseRetryAfter } from "./schedule";
import { loadSigningSecrets } from "./secrets";
import { signatureHeaders } from "./signing";

/** What an attempt needs from the process: the database, configuration, clock and network knobs. */
export interface DeliveryDeps {
  db: Executor;
  log: Logger;
  now: () => Date;
  schedule: readonly number[];
  allowPrivateTargets: boolean;
  authSecret: string;
  /** Network options passed to the sender (tests: a resolver, a CA, shorter timeouts). */
  send?: Pick<SendInput, "resolve" | "ca" | "connectTimeoutMs" | "totalTimeoutMs">;
  /** Jitter source; tests pin it. */
  random?: () => number;
}

export type DeliveryResult = "delivered" | "pending" | "failed" | "lease_lost";

/**
 * Makes one attempt of a claimed delivery and records it: the attempt row, and the delivery's next state
 * (`delivered`, `pending` at the next scheduled time, or `failed` once the schedule is exhausted — or at
 * once for a manual retry or a test send).
 */
export async function attemptDelivery(deps: DeliveryDeps, delivery: ClaimedDelivery): Promise<{ result: DeliveryResult; outcome: AttemptOutcome }> {
  const [event] = await deps.db
    .select()
    .from(events)
    .where(and(eq(events.id, delivery.eventId), eq(events.merchantId, delivery.merchantId)));
  if (!event) throw new Error(`Delivery ${delivery.id} has no event`);
  const secrets = await loadSigningSecrets(deps.db, { merchantId: delivery.merchantId, now: deps.now(), authSecret: deps.authSecret });
  if (secrets.length === 0) throw new Error(`Merchant ${delivery.merchantId} has no webhook secret`);

  const body = webhookBody(event);
  const sentAt = deps.now();
  const headers = signatureHeaders({ id: event.id, timestamp: Math.floor(sentAt.getTime() / 1000), body, secrets });
  const outcome = await sendWebhook({ url: delivery.url, headers, body, allowPrivateTargets: deps.allowPrivateTargets, ...deps.send });
  const result = await recordAttempt(deps, delivery, outcome, sentAt);
  return { result, outcome };
}

/** Writes the attempt and moves the delivery on, fenced by the lease: a worker that lost its claim changes nothing. */
export async function recordAttempt(
  deps: DeliveryDeps,
  delivery: ClaimedDelivery,
  outcome: AttemptOutcome,
  sentAt: Date,
): Promise<DeliveryResult> {
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

  return withTransaction(deps.db, async (tx) => {
    const updated = await tx
      .update(webhookDeliveries)
      .set({
        status: next.status,
        attemptCount: attemptsMade,
        nextAttemptAt: next.nextAttemptAt,
        nextTrigger: "scheduled",
        leaseExpiresAt: null,
        lastStatusCode: outcome.statusCode,
        lastError: outcome.ok ? null : outcome.errorMessage,
        deliveredAt: next.status === "delivered" ? now : null,
        failedAt: next.status === "failed" ? now : null,
        updatedAt: now,
      })
      .where(
        and(
          eq(webhookDeliveries.id, delivery.id),
          eq(webhookDeliveries.merchantId, delivery.merchantId),
          eq(webhookDeliveries.status, "delivering"),
          eq(webhookDeliveries.leaseExpiresAt, delivery.leaseExpiresAt),
        ),
      )
      .returning({ id: webhookDeliveries.id });
    // The attempt happened either way, so it is recorded either way.
    await tx.insert(deliveryAttempts).values({
      id: newId("attempt"),
      deliveryId: delivery.id,
      merchantId: delivery.merchantId,
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
    });
    if (updated.length === 0) {
      deps.log.warn({ deliveryId: delivery.id }, "webhook delivery lease lost before the attempt was recorded");
      return "lease_lost";
    }
    return next.status;
  });
}
