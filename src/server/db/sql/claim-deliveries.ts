import { is, sql, type SQL } from "drizzle-orm";
import { NodePgDatabase } from "drizzle-orm/node-postgres";
import { rowsOf } from "../rows";
import { nextPeriod } from "./log-partitions";
import { idArray, partitionKeyWithin } from "./literals";
import { sealedSigningSecrets } from "./signing-secrets";
import { events, webhookDeliveries, webhookEndpointBreakers, type EventRow } from "../schema";
import { withTransaction } from "../transaction";
import type { Executor } from "../types";

/** Any fixed number: the transaction-level advisory lock that takes the claims of every worker in turn. */
const CLAIM_LOCK_ID = 724_011_3002;

/*
 * The webhook worker's claim (webhooks/claim.ts), in one statement (docs/webhooks.md, "Delivery isolation"):
 * - `endpoints`: every endpoint with pending rows, found by skipping through the endpoint-due index one probe
 *   per endpoint (a loose index scan), so one endpoint's backlog of thousands costs one probe, not a read of it;
 * - `shares`: how many more of its deliveries each endpoint may have in flight: the per-endpoint bound (1 while
 *   its breaker is half-open, 0 while open) less its rows `delivering` under a live lease, in any worker. Less the
 *   claiming worker's `answered` ones: their requests were answered (2xx) and only their records are still being
 *   written, so they hold no request at the endpoint. A half-open breaker's probe holds its slot until recorded
 *   (the breaker must see its outcome before another is sent);
 * - `candidates`: each endpoint's due rows, oldest first, up to its share, numbered by turn (and whether the
 *   share was filled: then more may be due, and the worker claims again as soon as one of them ends);
 * - `chosen`, `picked`: the first turn of every endpoint, then the second, … (round robin), up to `limit`, locked;
 * - `claimed`: the picked rows leased, returned whole with their events (the worker needs nothing else to send).
 * Claims run one at a time (the advisory lock, taken in the same transaction before this statement, so its
 * snapshot sees the previous claim's rows), which makes the bound hold across processes, not only in one.
 */
const claimStatement = (key: (alias: string) => SQL, input: { now: string; lease: string; limit: number; perEndpoint: number; answered: SQL }, live: SQL) => sql`
with recursive endpoints as (
  (select ${key("d")} from ${webhookDeliveries} d where d.status = 'pending' and ${live} order by ${key("d")} limit 1)
  union all
  select n.* from endpoints e cross join lateral (
    select ${key("d")} from ${webhookDeliveries} d
    where d.status = 'pending' and ${live} and (${key("d")}) > (${key("e")})
    order by ${key("d")} limit 1
  ) n
), busy as (
  select ${key("d")}, count(*)::int as n, count(*) filter (where d.id <> all(${input.answered}))::int as sending
  from ${webhookDeliveries} d
  where d.status = 'delivering' and ${live} and d.lease_expires_at > ${input.now}::text::timestamptz
  group by ${key("d")}
), shares as (
  select ${key("e")},
    case when b.open_until is null then ${input.perEndpoint}::int - coalesce(busy.sending, 0)
         when b.open_until <= ${input.now}::text::timestamptz then 1 - coalesce(busy.n, 0)
         else 0 end as share,
    coalesce(b.consecutive_failures, 0) > 0 as breaker_counting
  from endpoints e
  left join ${webhookEndpointBreakers} b on (${key("b")}) = (${key("e")})
  left join busy on (${key("busy")}) = (${key("e")})
), candidates as (
  select ${key("c")}, c.merchant_id, c.id, c.event_created_at, c.next_attempt_at, row_number() over (partition by ${key("s")} order by c.next_attempt_at, c.id) as turn,
    count(*) over (partition by ${key("s")}) >= s.share as more_due, s.breaker_counting
  from shares s cross join lateral (
    select ${key("d")}, d.merchant_id, d.id, d.event_created_at, d.next_attempt_at from ${webhookDeliveries} d
    where d.status = 'pending' and ${live} and (${key("d")}) = (${key("s")}) and d.next_attempt_at <= ${input.now}::text::timestamptz
    order by d.next_attempt_at, d.id
    limit greatest(s.share, 0)
  ) c
  where s.share > 0
), chosen as (
  select * from candidates order by turn, next_attempt_at, id limit ${input.limit}::int
), picked as (
  -- Each chosen row by its whole primary key (the planner, without statistics on PGlite, would otherwise walk the
  -- whole backlog once per candidate), locked as it is taken. The whole key, partition key included, lets the
  -- lookup and the update read the one partition that holds the row, not probe every day's (the claim's cost
  -- stays flat as the table grows: BENCHMARKS.md, "Time-partitioned logs"). And by its whole key in the
  -- endpoint-due index as well: whichever index the planner picks (on statistics taken before a burst, the
  -- endpoint-due one looks smallest), the lookup is a seek, not a walk of that index once per candidate.
  select l.merchant_id, l.id, l.event_created_at, c.more_due, c.breaker_counting from chosen c cross join lateral (
    select d.merchant_id, d.id, d.event_created_at from ${webhookDeliveries} d
    where d.merchant_id = c.merchant_id and d.id = c.id and d.event_created_at = c.event_created_at
      and (${key("d")}) = (${key("c")}) and d.next_attempt_at = c.next_attempt_at and d.status = 'pending' and ${live}
    for update skip locked
  ) l
), claimed as (
  update ${webhookDeliveries} d
  set status = 'delivering', lease_expires_at = ${input.lease}::text::timestamptz, updated_at = ${input.now}::text::timestamptz
  from picked
  where d.merchant_id = picked.merchant_id and d.id = picked.id and d.event_created_at = picked.event_created_at and ${live}
  returning d.*, picked.more_due, picked.breaker_counting
)
-- Each claimed row with its event, found by the event's whole key (a row at a time, in its one partition): read
-- here, not by a second statement on the claimed ids, which the planner (its estimates for a few ids off by
-- thousands right after a burst) answered by reading both logs whole, slower with every delivery made. And with its
-- endpoint's sealed signing secrets, read in this snapshot (after the claim lock): a rotation committed before the
-- claim is what its attempts sign with, and the worker sends without another round trip.
select c.*, e.type as event_type, e.data as event_data, ${sealedSigningSecrets(sql`c.endpoint_id`, input.now)} as sealed_secrets
from claimed c cross join lateral (
  select e.type, e.data from ${events} e where e.merchant_id = c.merchant_id and e.id = c.event_id and e.created_at = c.event_created_at
) e`;

interface ClaimInput {
  keyColumns: readonly string[];
  now: string;
  lease: string;
  limit: number;
  perEndpoint: number;
  /** The claiming worker's deliveries answered 2xx whose attempts are still being recorded (none when not given). */
  answered?: readonly string[];
}

/** The days whose partitions can hold a delivery pending or in flight: from the start of the first to the end of the last. */
export interface LiveSpan {
  from: Date;
  to: Date;
}

/**
 * The claim's statement (without what claimDueDeliveryRows does first; the bench explains it). The live span,
 * written as literals, lets the planner leave out every day's partition outside it (docs/operations.md, "Partitions
 * and retention"): usually all but today's, so the loose index scan of the endpoints reads one index in order, and
 * the statement is planned for one partition rather than for every day made ahead and the default one.
 */
export function claimStatementFor(input: ClaimInput, live: LiveSpan): SQL {
  const key = (alias: string) => sql.raw(input.keyColumns.map((column) => `${alias}.${column}`).join(", "));
  return claimStatement(key, { ...input, answered: idArray(input.answered ?? []) }, partitionKeyWithin("d.event_created_at", live.from, live.to));
}

/**
 * The (UTC) days of the oldest and newest partition keys of a delivery pending or in flight (a small partial index
 * on the day, webhook_deliveries_live_day_idx), or null when there is none. Days, not the keys themselves: both
 * leave out the same partitions (a day each), but a bound inside the day, on an index of the time, looked selective
 * to the planner whenever the day's statistics predated the newest rows, and it then read every live row by time
 * instead of each endpoint's by its index, on every claim (case 5 fell from 674 to 278 deliveries/s).
 */
export async function liveSpan(db: Executor): Promise<LiveSpan | null> {
  const [row] = rowsOf<{ first: string | null; last: string | null }>(
    await db.execute(sql`
      select to_char(min((event_created_at at time zone 'UTC')::date), 'YYYY-MM-DD') as first,
        to_char(max((event_created_at at time zone 'UTC')::date), 'YYYY-MM-DD') as last
      from ${webhookDeliveries} where status in ('pending', 'delivering')`),
  );
  if (!row?.first || !row.last) return null;
  return { from: new Date(`${row.first}T00:00:00.000Z`), to: nextPeriod(new Date(`${row.last}T00:00:00.000Z`), "day") };
}

/**
 * What a claim's transaction sets before its statement, in the one round trip that takes the claim lock (claims wait
 * for each other on it, so every round trip inside it is paid by every worker in turn):
 * - no hash or merge joins: the claimed rows are few, joined by their key a row at a time, each reaches its one
 *   partition; a hash join would read every partition in full (the planner cannot tell the claim's few rows from many);
 * - no bitmap scans: a plain index scan marks the entries of rows that are dead for everyone (`LP_DEAD`), and the
 *   scans after it step over them without reading the table; a bitmap scan never does. Right after a burst, every
 *   delivery of the last lease's length has a dead `delivering` entry whose lease is still in the future: the count
 *   of each endpoint's requests in flight read all of them from the table on every claim (26,350 entries, 1,495
 *   table pages, 2.4 ms a claim after 30,000 deliveries) until a vacuum. Now the claim right after such a burst
 *   takes 0.8 ms from its third run on, against 0.4 ms after a vacuum (`bench/tools/claim-after-burst.ts`);
 * - `synchronous_commit` off: the commit does not wait for its WAL to reach the disk. A claim lost in a database
 *   crash leaves its deliveries `pending`, to be sent again: what a worker dying mid-send already does (at least
 *   once, docs/webhooks.md). The attempt's record, which commits synchronously after the send, flushes the claim
 *   with it.
 * For this transaction only (`set_config(…, true)`).
 */
const claimLock = sql`
    select pg_advisory_xact_lock(${CLAIM_LOCK_ID}::bigint),
      set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true),
      set_config('enable_bitmapscan', 'off', true), set_config('synchronous_commit', 'off', true)`;

/** The claim lock alone, in a caller's transaction: to explain the claim's plan as it runs (bench/log-partitions.ts). */
export async function takeClaimLock(tx: Executor): Promise<void> {
  await tx.execute(claimLock);
}

/** A claimed delivery as the driver gives it (db/rows.ts reads it through the table's columns), with its event and flags. */
export interface ClaimedRow extends Record<string, unknown> {
  /** The events table's `type` (a text column that holds only the catalogue's types). */
  event_type: EventRow["type"];
  event_data: unknown;
  /** The delivery's endpoint had as many due deliveries as it could take, or more. */
  more_due: boolean;
  /** The endpoint's breaker has failures counted. */
  breaker_counting: boolean;
  /** The endpoint's sealed signing secrets, current first (signing-secrets.ts). */
  sealed_secrets: string[];
}

/**
 * Takes the claim lock, then claims: resolves with the claimed deliveries, each with its event and flags.
 * `keyColumns` are the columns that name one endpoint (webhooks/endpoint-key.ts). `now` and `lease` are ISO texts.
 * `live`: the days to look in (the worker's span, webhooks/live-span.ts), read first when not given.
 *
 * The lock and the claim are two statements of one transaction: the claim's snapshot must be taken after the lock
 * is held, so that it sees the rows of the claim before it. On the server they go to PostgreSQL in one round trip,
 * as one query of two statements, which PostgreSQL runs as one transaction (each statement with its own snapshot,
 * as in any transaction): a claim is paid by every worker in turn, and BEGIN, the lock, the claim and COMMIT one
 * round trip each held one endpoint to 1,023 deliveries/s where one round trip gives 1,226/s (1.20× interleaved,
 * BENCHMARKS.md case 5). Such a query takes no parameters: the values are written in as literals, all of them made
 * here (times, numbers, ids), none a client's. The embedded database runs in this process (no round trip to save)
 * and inside a caller's transaction (the bench's) the statements run one after the other.
 */
export async function claimDueDeliveryRows(db: Executor, input: ClaimInput & { live?: LiveSpan }): Promise<ClaimedRow[]> {
  const live = input.live ?? (await liveSpan(db));
  // None: nothing pending or in flight, nothing to claim.
  if (!live) return [];
  const claim = claimStatementFor(input, live);
  if (is(db, NodePgDatabase)) {
    const results = (await db.execute(sql.join([claimLock, claim], sql.raw(";\n")).inlineParams())) as unknown;
    // node-postgres answers a query of several statements with one result each.
    return rowsOf<ClaimedRow>(Array.isArray(results) ? results.at(-1) : results);
  }
  return withTransaction(db, async (tx) => {
    await tx.execute(claimLock);
    return rowsOf<ClaimedRow>(await tx.execute(claim));
  });
}
