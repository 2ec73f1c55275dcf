import { and, gt, sql } from "drizzle-orm";
import { webhookEndpointBreakers } from "@/server/db/schema";
import type { Transaction } from "@/server/db/types";
import { endpointKeyText, isOneOfEndpoints, type EndpointKey } from "./endpoint-key";
import type { AttemptOutcome } from "./http-sender";

/*
 * The per-endpoint circuit breaker (docs/webhooks.md, "When your endpoint is down"). Its state is a row per
 * endpoint in PostgreSQL, so every worker sees the same breaker: written here with each batch of recorded
 * attempts, read by the claim (claim.ts), which claims nothing of an open endpoint and one probe at a time of a
 * half-open one. The breaker never fails a delivery and never moves one in the schedule: deferred deliveries
 * keep their due time and attempt count, and only attempts actually made count towards the schedule.
 */

export interface BreakerOptions {
  /** Consecutive failed attempts that open the breaker. */
  failureThreshold: number;
  /** How long it stays open after the last failure before one probe is let through (half-open). */
  cooldownMs: number;
}

export const BREAKER_DEFAULTS: BreakerOptions = { failureThreshold: 5, cooldownMs: 30_000 };

/**
 * Failures that say the endpoint is down or overwhelmed: no connection, no answer in time, or a 5xx. Any other
 * answer (2xx, 4xx, 429) comes from a working endpoint; a `blocked` target never left this process.
 */
export function isEndpointFailure(outcome: AttemptOutcome): boolean {
  if (outcome.errorClass === "http") return outcome.statusCode !== null && outcome.statusCode >= 500;
  return outcome.errorClass === "dns" || outcome.errorClass === "connect" || outcome.errorClass === "tls" || outcome.errorClass === "timeout";
}

/**
 * Moves the breakers of the endpoints in one batch of attempts (in the order they ended): an endpoint that
 * answered closes, and the failures after its last answer add up; reaching the threshold opens it (again) for
 * the cool-down, counted from now.
 */
export async function recordEndpointOutcomes(
  tx: Transaction,
  /** `counting`: the claim saw failures counted on the endpoint's breaker (false: it had none; skip the reset). */
  attempts: readonly { endpoint: EndpointKey; failed: boolean; counting: boolean }[],
  input: { now: Date; options: BreakerOptions },
): Promise<void> {
  const byEndpoint = new Map<string, { endpoint: EndpointKey; answered: boolean; failures: number; counting: boolean }>();
  for (const { endpoint, failed, counting } of attempts) {
    const entry = byEndpoint.get(endpointKeyText(endpoint)) ?? { endpoint, answered: false, failures: 0, counting: false };
    entry.counting ||= counting || failed;
    if (failed) entry.failures++;
    else Object.assign(entry, { answered: true, failures: 0 });
    byEndpoint.set(endpointKeyText(endpoint), entry);
  }
  const entries = [...byEndpoint.values()];
  // A healthy endpoint's breaker has counted nothing (the claim says so): no statement for it.
  const answered = entries.filter((entry) => entry.answered && entry.counting).map((entry) => entry.endpoint);
  if (answered.length > 0) {
    await tx
      .update(webhookEndpointBreakers)
      .set({ consecutiveFailures: 0, openUntil: null, updatedAt: input.now })
      .where(and(isOneOfEndpoints(webhookEndpointBreakers, answered), gt(webhookEndpointBreakers.consecutiveFailures, 0)));
  }
  const failing = entries.filter((entry) => entry.failures > 0);
  if (failing.length === 0) return;
  const { failureThreshold, cooldownMs } = input.options;
  const openUntil = new Date(input.now.getTime() + cooldownMs);
  const total = sql`${webhookEndpointBreakers.consecutiveFailures} + excluded.consecutive_failures`;
  await tx
    .insert(webhookEndpointBreakers)
    .values(
      failing.map(({ endpoint, failures }) => ({
        ...endpoint,
        consecutiveFailures: failures,
        openUntil: failures >= failureThreshold ? openUntil : null,
        updatedAt: input.now,
      })),
    )
    .onConflictDoUpdate({
      target: [webhookEndpointBreakers.merchantId, webhookEndpointBreakers.endpointId],
      set: {
        consecutiveFailures: total,
        openUntil: sql`case when ${total} >= ${failureThreshold}::int then ${openUntil.toISOString()}::text::timestamptz else null end`,
        updatedAt: input.now,
      },
    });
}
