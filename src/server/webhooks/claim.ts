import { and, eq, inArray, lte, sql } from "drizzle-orm";
import { events, webhookDeliveries, webhookEndpointBreakers, type EventRow, type WebhookDeliveryRow } from "@/server/db/schema";
import { rowsOf } from "@/server/db/rows";
import { withTransaction } from "@/server/db/transaction";
import type { Executor } from "@/server/db/types";
import { endpointKeySql as key } from "./endpoint-key";

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
}

/** Any fixed number: the transaction-level advisory lock that takes the claims of every worker in turn. */
const CLAIM_LOCK_ID = 724_011_3002;

/*
 * The claim, in one statement (docs/webhooks.md, "Delivery isolation"):
 * - `endpoints`: every endpoint with pending rows, found by skipping through the endpoint-due index one probe
 *   per endpoint (a loose index scan), so one endpoint's backlog of thousands costs one probe, not a read of it;
 * - `shares`: how many more of its deliveries each endpoint may have in flight: the per-endpoint bound (1 while
 *   its breaker is half-open, 0 while open) less its rows `delivering` under a live lease, in any worker;
 * - `candidates`: each endpoint's due rows, oldest first, up to its share, numbered by turn (and whether the
 *   share was filled: then more may be due, and the worker claims again as soon as one of them ends);
 * - `chosen`, `picked`: the first turn of every endpoint, then the second, … (round robin), up to `limit`, locked.
 * Claims run one at a time (the advisory lock, taken in the same transaction before this statement, so its
 * snapshot sees the previous claim's rows), which makes the bound hold across processes, not only in one.
 */
const claimStatement = (input: { now: string; lease: string; limit: number; perEndpoint: number }) => sql`
with recursive endpoints as (
  (select ${key("d")} from ${webhookDeliveries} d where d.status = 'pending' order by ${key("d")} limit 1)
  union all
  select n.* from endpoints e cross join lateral (
    select ${key("d")} from ${webhookDeliveries} d
    where d.status = 'pending' and (${key("d")}) > (${key("e")})
    order by ${key("d")} limit 1
  ) n
), busy as (
  select ${key("d")}, count(*)::int as n from ${webhookDeliveries} d
  where d.status = 'delivering' and d.lease_expires_at > ${input.now}::text::timestamptz
  group by ${key("d")}
), shares as (
  select ${key("e")},
    (case when b.open_until is null then ${input.perEndpoint}::int
          when b.open_until <= ${input.now}::text::timestamptz then 1
          else 0 end) - coalesce(busy.n, 0) as share,
    coalesce(b.consecutive_failures, 0) > 0 as breaker_counting
  from endpoints e
  left join ${webhookEndpointBreakers} b on (${key("b")}) = (${key("e")})
  left join busy on (${key("busy")}) = (${key("e")})
), candidates as (
  select c.id, c.next_attempt_at, row_number() over (partition by ${key("s")} order by c.next_attempt_at, c.id) as turn,
    count(*) over (partition by ${key("s")}) >= s.share as more_due, s.breaker_counting
  from shares s cross join lateral (
    select d.id, d.next_attempt_at from ${webhookDeliveries} d
    where d.status = 'pending' and (${key("d")}) = (${key("s")}) and d.next_attempt_at <= ${input.now}::text::timestamptz
    order by d.next_attempt_at, d.id
    limit greatest(s.share, 0)
  ) c
  where s.share > 0
), chosen as (
  select * from candidates order by turn, next_attempt_at, id limit ${input.limit}::int
), picked as (
  -- Each chosen row by its primary key (the planner, without statistics on PGlite, would otherwise walk the
  -- whole backlog once per candidate), locked as it is taken.
  select l.id, c.more_due, c.breaker_counting from chosen c cross join lateral (
    select d.id from ${webhookDeliveries} d where d.id = c.id and d.status = 'pending' for update skip locked
  ) l
)
update ${webhookDeliveries} d
set status = 'delivering', lease_expires_at = ${input.lease}::text::timestamptz, updated_at = ${input.now}::text::timestamptz
from picked
where d.id = picked.id
returning d.id, picked.more_due, picked.breaker_counting`;

/**
 * Claims up to `limit` due deliveries, fairly across endpoints and within each endpoint's bound, and leases them
 * for `leaseMs`. The lease makes the claim outlive the statement, and expire if the claimant dies
 * (`releaseExpiredLeases` hands such rows back).
 */
export async function claimDueDeliveries(
  db: Executor,
  input: { limit: number; leaseMs: number; now: Date; perEndpoint: number },
): Promise<Claim[]> {
  if (input.limit <= 0) return [];
  const statement = claimStatement({
    now: input.now.toISOString(),
    lease: new Date(input.now.getTime() + input.leaseMs).toISOString(),
    limit: input.limit,
    perEndpoint: input.perEndpoint,
  });
  const ids = await withTransaction(db, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK_ID}::bigint)`);
    // The one raw result the worker reads: ids and flags (text and booleans in both drivers). Everything else
    // comes back through drizzle's columns.
    return rowsOf<{ id: string; more_due: boolean; breaker_counting: boolean }>(await tx.execute(statement));
  });
  if (ids.length === 0) return [];
  const flags = new Map(ids.map((row) => [row.id, { moreDue: row.more_due === true, breakerCounting: row.breaker_counting === true }]));
  const rows = await db
    .select({ delivery: webhookDeliveries, event: { id: events.id, type: events.type, data: events.data, createdAt: events.createdAt } })
    .from(webhookDeliveries)
    .innerJoin(events, and(eq(events.id, webhookDeliveries.eventId), eq(events.merchantId, webhookDeliveries.merchantId)))
    .where(inArray(webhookDeliveries.id, [...flags.keys()]));
  return rows
    .filter((row): row is Claim => row.delivery.leaseExpiresAt !== null)
    .map(({ delivery, event }) => ({ delivery: { ...delivery, ...flags.get(delivery.id) }, event }))
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
