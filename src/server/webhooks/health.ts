import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { webhookDeliveries, webhookEndpoints, type WebhookEndpointRow } from "@/server/db/schema";
import type { Transaction } from "@/server/db/types";
import type { AttemptOutcome } from "./http-sender";
import { isNotTestSendDelivery } from "./test-sends";

/*
 * Endpoint health (docs/webhooks.md, "Endpoint health"), moved with each batch of recorded attempts: an endpoint
 * that answers `410 Gone` is disabled at once (reason `gone`); one whose attempts have all failed since
 * `failing_since` for `disableAfterMs` is disabled (reason `failing`). Any 2xx ends the run of failures. Unlike
 * the breaker (a cool-down of seconds), this is the merchant's endpoint being given up on, so it is told to the
 * merchant's other endpoints (`webhook.endpoint_disabled`) and shown in the dashboard.
 */

export const DEFAULT_DISABLE_AFTER_MS = 5 * 24 * 60 * 60 * 1000;

/**
 * Disables an endpoint whose row the caller holds locked, and tells the merchant: a service
 * (services/webhook-endpoints/state.ts), handed to the engine by the process that runs it (background/start.ts).
 */
export type EndpointDisabler = (tx: Transaction, input: { endpoint: WebhookEndpointRow; reason: "failing" | "gone"; now: Date }) => Promise<unknown>;

export interface HealthAttempt {
  endpointId: string;
  outcome: AttemptOutcome;
}

export async function recordEndpointHealth(tx: Transaction, attempts: readonly HealthAttempt[], input: { now: Date; disableAfterMs: number; disableEndpoint: EndpointDisabler }): Promise<void> {
  // The last attempt of each endpoint in the batch says where it stands; a 410 anywhere in it means gone.
  const last = new Map<string, { ok: boolean; gone: boolean }>();
  for (const { endpointId, outcome } of attempts) {
    const gone = (last.get(endpointId)?.gone ?? false) || outcome.statusCode === 410;
    last.set(endpointId, { ok: outcome.ok, gone });
  }
  const failing = [...last].filter(([, state]) => !state.ok || state.gone).map(([id]) => id);
  const answered = [...last].filter(([, state]) => state.ok && !state.gone).map(([id]) => id);
  const { now, disableEndpoint } = input;
  if (answered.length > 0) {
    await tx
      .update(webhookEndpoints)
      .set({ failingSince: null })
      .where(and(inArray(webhookEndpoints.id, answered), isNotNull(webhookEndpoints.failingSince)));
  }
  if (failing.length === 0) return;
  // Locked, so attempts recorded concurrently for one endpoint take turns here and each sees the other's verdict.
  const rows = await tx.select().from(webhookEndpoints).where(inArray(webhookEndpoints.id, failing)).for("update");
  for (const row of rows) {
    if (row.status === "disabled") {
      // Disabled while this attempt was in flight: its delivery waits with the others (state.ts).
      await tx
        .update(webhookDeliveries)
        .set({ nextAttemptAt: null })
        .where(and(eq(webhookDeliveries.endpointId, row.id), eq(webhookDeliveries.status, "pending"), isNotNull(webhookDeliveries.nextAttemptAt), isNotTestSendDelivery));
    } else if (last.get(row.id)!.gone) {
      await disableEndpoint(tx, { endpoint: row, reason: "gone", now });
    } else if (row.failingSince === null) {
      await tx.update(webhookEndpoints).set({ failingSince: now }).where(eq(webhookEndpoints.id, row.id));
    } else if (now.getTime() - row.failingSince.getTime() >= input.disableAfterMs) {
      await disableEndpoint(tx, { endpoint: row, reason: "failing", now });
    }
  }
}
