import { and, eq, lte } from "drizzle-orm";
import { events, webhookDeliveries, type EventRow, type WebhookDeliveryRow } from "@/server/db/schema";
import { tableRowOf } from "@/server/db/rows";
import { claimDueDeliveryRows, type LiveSpan } from "@/server/db/sql/claim-deliveries";
import type { Executor } from "@/server/db/types";
import { ENDPOINT_KEY_COLUMNS } from "./endpoint-key";

/** A delivery this worker holds until `leaseExpiresAt`; that value doubles as the fencing token. */
export type ClaimedDelivery = WebhookDeliveryRow & {
  leaseExpiresAt: Date;
  /** Its endpoint had as many due deliveries as it could take, or more: when this one ends, claim again. */
  moreDue?: boolean;
  /** Its endpoint's breaker has failures counted (breaker.ts): an answer must reset them. */
  breakerCounting?: boolean;
};

/** What a delivery sends: its event (the body is built from it alone, so every attempt sends the same bytes). */
export type DeliveredEvent = Pick<EventRow, "id" | "type" | "data" | "createdAt">;

/** A claimed delivery and its event, read together. */
export interface Claim {
  delivery: ClaimedDelivery;
  event: DeliveredEvent;
  /** Its endpoint's sealed signing secrets, current first, when read with the claim (attempt.ts opens them). */
  sealedSecrets?: readonly string[];
}

/**
 * Claims up to `limit` due deliveries, fairly across endpoints and within each endpoint's bound, and leases them
 * for `leaseMs`. The lease makes the claim outlive the statement, and expire if the claimant dies
 * (`releaseExpiredLeases` hands such rows back). `live`: the days to look in (live-span.ts); read by the claim when
 * not given. `answered`: the claimant's deliveries answered 2xx and still being recorded, whose slots are free.
 */
export async function claimDueDeliveries(
  db: Executor,
  input: { limit: number; leaseMs: number; now: Date; perEndpoint: number; live?: LiveSpan; answered?: readonly string[] },
): Promise<Claim[]> {
  if (input.limit <= 0) return [];
  // The claim statement (db/sql/claim-deliveries.ts): fair across endpoints, within each one's bound and breaker.
  const claimed = await claimDueDeliveryRows(db, {
    keyColumns: ENDPOINT_KEY_COLUMNS,
    now: input.now.toISOString(),
    lease: new Date(input.now.getTime() + input.leaseMs).toISOString(),
    limit: input.limit,
    perEndpoint: input.perEndpoint,
    live: input.live,
    answered: input.answered,
  });
  return claimed
    .map((row) => {
      const delivery = tableRowOf(webhookDeliveries, row);
      const event: DeliveredEvent = {
        id: delivery.eventId,
        type: row.event_type,
        data: events.data.mapFromDriverValue(row.event_data) as EventRow["data"],
        createdAt: delivery.eventCreatedAt,
      };
      return {
        delivery: { ...delivery, leaseExpiresAt: delivery.leaseExpiresAt!, moreDue: row.more_due === true, breakerCounting: row.breaker_counting === true },
        event,
        sealedSecrets: row.sealed_secrets,
      };
    })
    .sort((a, b) => (a.delivery.nextAttemptAt?.getTime() ?? 0) - (b.delivery.nextAttemptAt?.getTime() ?? 0));
}

/**
 * Hands the deliveries of workers that died mid-attempt back to the queue (`delivering` past its lease →
 * `pending`, keeping its due time and attempt count), where the next claim takes them fairly like any other.
 */
export async function releaseExpiredLeases(db: Executor, now: Date): Promise<number> {
  const released = await db
    .update(webhookDeliveries)
    .set({ status: "pending", leaseExpiresAt: null, updatedAt: now })
    .where(and(eq(webhookDeliveries.status, "delivering"), lte(webhookDeliveries.leaseExpiresAt, now)))
    .returning({ id: webhookDeliveries.id });
  return released.length;
}
