import { sql, type SQL } from "drizzle-orm";
import { rowsOf } from "../rows";
import { withTransaction } from "../transaction";
import type { Executor, Transaction } from "../types";

/*
 * The time-partitioned logs (docs/operations.md, "Partitions and retention"). Each is range-partitioned by a
 * creation time, one partition per UTC day (per month for the audit log), named `<table>_pYYYYMMDD`
 * (`<table>_pYYYYMM`), plus a default partition that takes any row whose period has no partition yet, so a write
 * never fails for want of one. The service makes partitions ahead and carves any period found in a default
 * partition into a partition of its own (`ensureLogPartitions`); retention drops a day's partitions whole
 * (`dropExpiredDays`). DDL takes no bind parameters: every name and bound below is built from a Date or a fixed
 * table name, never from input.
 */

type Unit = "day" | "month";

interface LogTable {
  table: string;
  /** The partition key: a `timestamptz` column. */
  key: string;
  unit: Unit;
  /** Storage parameters of each partition (a partitioned table holds none of its own). */
  options?: string;
}

/** Events, deliveries and attempts share a day's partitions: a delivery and its attempts are keyed by their event's time. */
export const DAY_LOGS: readonly LogTable[] = [
  { table: "events", key: "created_at", unit: "day" },
  {
    table: "webhook_deliveries",
    key: "event_created_at",
    unit: "day",
    // The outbox's vacuum settings (drizzle/0002): its rows are updated on every attempt.
    options: "autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 2000, autovacuum_analyze_scale_factor = 0.02",
  },
  { table: "delivery_attempts", key: "event_created_at", unit: "day" },
];

/** The audit log is kept (no retention): a partition a month keeps their number small over years. */
export const MONTH_LOGS: readonly LogTable[] = [{ table: "audit_log", key: "created_at", unit: "month" }];

/** Any fixed number: the transaction-level advisory lock that makes partition changes one at a time across processes. */
const PARTITION_LOCK_ID = 724_011_3036;

export function periodStart(at: Date, unit: Unit): Date {
  return unit === "day"
    ? new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()))
    : new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

export function nextPeriod(start: Date, unit: Unit, count = 1): Date {
  return unit === "day"
    ? new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate() + count))
    : new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + count, 1));
}

export function partitionName(log: LogTable, start: Date): string {
  const digits = start.toISOString().slice(0, log.unit === "day" ? 10 : 7).replaceAll("-", "");
  return `${log.table}_p${digits}`;
}

/** A partition's period from its name, or null for the default partition (or any other child). */
function periodOfName(log: LogTable, name: string): Date | null {
  const match = new RegExp(`^${log.table}_p(\\d{4})(\\d{2})(\\d{2})?$`).exec(name);
  if (!match) return null;
  const [, year, month, day] = match;
  return new Date(Date.UTC(Number(year), Number(month) - 1, log.unit === "day" ? Number(day) : 1));
}

/**
 * Whether a table of that name exists, read from pg_class with the statement's snapshot. Not `to_regclass`: it
 * answers from the backend's catalog cache, which is only brought up to date when a relation is locked, so after
 * waiting on the advisory lock it could still report a partition another process has just dropped (or miss one it
 * has just made).
 */
async function tableExists(tx: Transaction, name: string): Promise<boolean> {
  const [row] = rowsOf<{ found: boolean }>(
    await tx.execute(sql`select exists (select 1 from pg_class where relname = ${name} and relnamespace = current_schema()::regnamespace) as found`),
  );
  return row?.found === true;
}

const ident = (name: string) => sql.raw(`"${name.replaceAll('"', '""')}"`);
const literal = (at: Date) => sql.raw(`'${at.toISOString()}'`);

/** The periods of a log's partitions (not its default partition), oldest first. */
export async function listPartitions(db: Executor, log: LogTable): Promise<{ name: string; start: Date }[]> {
  const result = await db.execute(sql`
    select c.relname as name from pg_inherits i
    join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${log.table}::text::regclass`);
  return rowsOf<{ name: string }>(result)
    .map(({ name }) => ({ name, start: periodOfName(log, name) }))
    .filter((row): row is { name: string; start: Date } => row.start !== null)
    .sort((a, b) => a.start.getTime() - b.start.getTime());
}

/** The periods that rows in a log's default partition fall in (normally none). */
async function periodsInDefault(db: Executor, log: LogTable): Promise<Date[]> {
  const result = await db.execute(
    sql`select distinct to_char(date_trunc(${log.unit}, ${ident(log.key)}, 'UTC') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as start
        from ${ident(`${log.table}_default`)}`,
  );
  return rowsOf<{ start: string }>(result).map((row) => new Date(row.start));
}

/**
 * Makes the partition of `start`'s period unless it exists: a table like the log, the period's rows moved into it
 * from the default partition, then attached (which builds its indexes). The lock waits at most the transaction's
 * lock_timeout (ensureLogPartitions). Returns whether it made one.
 *
 * A period that may be written now (the current one or the next, `writable`) is made with the whole log locked for
 * the moment: a write routed to the default partition just before the attach would otherwise land there after it
 * and fail its new constraint. A period further ahead (the days made a week ahead, every day) locks the default
 * partition only, which is all the attach needs: writes of the current day go on meanwhile (PostgreSQL locks the
 * partition a row is routed to, and the attach takes the log's SHARE UPDATE EXCLUSIVE lock, which writes and reads do
 * not conflict with). Only a write with a clock days ahead could then fail, and be retried.
 */
async function createPartition(tx: Transaction, log: LogTable, start: Date, writable: boolean): Promise<boolean> {
  const name = partitionName(log, start);
  if (await tableExists(tx, name)) return false;
  const end = nextPeriod(start, log.unit);
  await tx.execute(sql`lock table ${ident(writable ? log.table : `${log.table}_default`)} in access exclusive mode`);
  const options = log.options ? sql.raw(` with (${log.options})`) : sql``;
  await tx.execute(sql`create table ${ident(name)} (like ${ident(log.table)} including defaults including constraints)${options}`);
  await tx.execute(sql`
    with moved as (
      delete from ${ident(`${log.table}_default`)} where ${ident(log.key)} >= ${literal(start)} and ${ident(log.key)} < ${literal(end)} returning *
    )
    insert into ${ident(name)} select * from moved`);
  await tx.execute(sql`alter table ${ident(log.table)} attach partition ${ident(name)} for values from (${literal(start)}) to (${literal(end)})`);
  return true;
}

/**
 * Makes every log's partitions from the current period to `daysAhead` days (`monthsAhead` months) ahead, and a
 * partition for every period that rows in a default partition fall in (a write for a period not made yet, such
 * as a clock far ahead; not a day before `expiredBefore`). Safe in any number of processes at once (an advisory
 * lock; a partition that exists is left alone). Each partition is made in a transaction of its own that locks its log alone, for a moment: holding
 * one log's lock while waiting for another's could deadlock with a statement reading both (dropPartition). The
 * lock waits at most `lockTimeoutMs` (below deadlock_timeout): a busy moment makes the run give up, and the next
 * run makes the rest. Returns how many partitions it made.
 */
export async function ensureLogPartitions(
  db: Executor,
  input: { now: Date; daysAhead: number; monthsAhead: number; lockTimeoutMs?: number; expiredBefore?: Date },
): Promise<number> {
  // A day past the retention found in a default partition holds rows a drop carried over (dropPartition): they stay
  // there until the row-by-row retention deletes them, rather than be given back a partition the next drop takes.
  const expired = (unit: Unit, start: Date) => unit === "day" && input.expiredBefore !== undefined && nextPeriod(start, unit).getTime() <= input.expiredBefore.getTime();
  const groups: [readonly LogTable[], Unit, number][] = [
    [DAY_LOGS, "day", input.daysAhead],
    [MONTH_LOGS, "month", input.monthsAhead],
  ];
  let made = 0;
  for (const [logs, unit, ahead] of groups) {
    const first = periodStart(input.now, unit);
    // The current period and the next may be written while they are made (createPartition's `writable`).
    const writableUntil = nextPeriod(first, unit, 2).getTime();
    const starts = new Map<number, Date>();
    for (let n = 0; n <= ahead; n++) starts.set(nextPeriod(first, unit, n).getTime(), nextPeriod(first, unit, n));
    for (const log of logs) for (const start of await periodsInDefault(db, log)) if (!expired(unit, start)) starts.set(start.getTime(), start);
    const existing = new Set<string>();
    for (const log of logs) for (const { name } of await listPartitions(db, log)) existing.add(name);
    for (const start of [...starts.values()].sort((a, b) => a.getTime() - b.getTime())) {
      for (const log of logs) {
        if (existing.has(partitionName(log, start))) continue;
        const createdHere = await withTransaction(db, async (tx) => {
          await tx.execute(sql`select pg_advisory_xact_lock(${PARTITION_LOCK_ID}::bigint)`);
          await tx.execute(sql.raw(`set local lock_timeout = '${Math.round(input.lockTimeoutMs ?? 500)}ms'`));
          return createPartition(tx, log, start, start.getTime() < writableUntil);
        });
        if (createdHere) made++;
      }
    }
  }
  return made;
}

const LIVE = sql.raw(`('pending', 'delivering')`);

/** The deliveries of a day's events still pending or in flight, in whichever partition they are. */
const liveOfDay = (start: Date): SQL => sql`select 1 from webhook_deliveries d
  where d.event_created_at >= ${literal(start)} and d.event_created_at < ${literal(nextPeriod(start, "day"))} and d.status in ${LIVE}`;

/**
 * The rows of a day's partition of `log` to carry over its drop: those of an event still being delivered (a
 * delivery pending or in flight). Read through the deliveries log bounded to the day, so they are found whether
 * that day's deliveries partition still exists or was dropped already (its live rows then sit in the default one).
 */
function carriedRows(log: LogTable, partition: SQL, start: Date): SQL {
  switch (log.table) {
    case "webhook_deliveries":
      return sql`select * from ${partition} where status in ${LIVE}`;
    case "delivery_attempts":
      return sql`select a.* from ${partition} a where exists (${liveOfDay(start)} and d.merchant_id = a.merchant_id and d.id = a.delivery_id)`;
    default:
      return sql`select e.* from ${partition} e where exists (${liveOfDay(start)} and d.merchant_id = e.merchant_id and d.event_id = e.id)`;
  }
}

/**
 * Drops one log's partition of a day, in a short transaction of its own that locks that log alone: holding one
 * log's exclusive lock while waiting for another's could deadlock with a statement that reads both in the other
 * order (the worker reads a claimed delivery with its event; the outbox writes an event, then its deliveries), and
 * then every try ran into its lock timeout (BENCHMARKS.md, the partition rows). Rows of an event still being
 * delivered are copied out first and written back after the drop, where they land in the default partition (the
 * day has no partition any more) and stay until the row-by-row retention finds them finished
 * (services/events/prune.ts). The lock waits at most `lockTimeoutMs`. Returns the rows carried, or null when the
 * partition was gone already (another process dropped it).
 */
async function dropPartition(db: Executor, log: LogTable, start: Date, lockTimeoutMs: number): Promise<number | null> {
  return withTransaction(db, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${PARTITION_LOCK_ID}::bigint)`);
    const name = partitionName(log, start);
    if (!(await tableExists(tx, name))) return null;
    await tx.execute(sql.raw(`set local lock_timeout = '${Math.round(lockTimeoutMs)}ms'`));
    const partition = ident(name);
    const [live] = rowsOf<{ found: boolean }>(await tx.execute(sql`select exists (${liveOfDay(start)}) as found`));
    if (live?.found) await tx.execute(sql`create temp table carried on commit drop as ${carriedRows(log, partition, start)}`);
    await tx.execute(sql`lock table ${ident(log.table)} in access exclusive mode`);
    await tx.execute(sql`drop table ${partition}`);
    if (!live?.found) return 0;
    return rowsOf<{ id: string }>(await tx.execute(sql`insert into ${ident(log.table)} select * from carried returning id`)).length;
  });
}

const LOCK_TIMEOUT = "55P03";
const isLockTimeout = (error: unknown): boolean =>
  typeof error === "object" && error !== null && ((error as { code?: unknown }).code === LOCK_TIMEOUT || isLockTimeout((error as { cause?: unknown }).cause));

/**
 * Drops, oldest first, every day whose partitions end at or before `cutoff` (a day past the retention): attempts,
 * then deliveries, then events, one partition a transaction (`dropPartition`), so a day stays listed by its events
 * partition until all of it is gone. A drop that waited `lockTimeoutMs` in vain (a busy moment) is tried again
 * after a pause, up to `tries` times; then the day waits for the next run. Returns the days dropped and the events
 * carried over.
 */
export async function dropExpiredDays(
  db: Executor,
  input: { cutoff: Date; lockTimeoutMs: number; tries?: number },
): Promise<{ days: number; carried: number }> {
  // Every log's days, not only the events': a partition of one log can outlive its day's others (made again from
  // carried rows by ensureLogPartitions between two drops).
  const starts = new Map<number, Date>();
  for (const log of DAY_LOGS) for (const { start } of await listPartitions(db, log)) starts.set(start.getTime(), start);
  const expired = [...starts.values()].filter((start) => nextPeriod(start, "day").getTime() <= input.cutoff.getTime()).sort((a, b) => a.getTime() - b.getTime());
  let days = 0;
  let carried = 0;
  for (const start of expired) {
    let dropped = false;
    for (const log of [...DAY_LOGS].reverse()) {
      const rows = await withLockRetries(() => dropPartition(db, log, start, input.lockTimeoutMs), input);
      if (rows === null) continue;
      dropped = true;
      if (log.table === "events") carried += rows;
    }
    if (dropped) days++;
  }
  return { days, carried };
}

async function withLockRetries<T>(attempt: () => Promise<T>, input: { lockTimeoutMs: number; tries?: number }): Promise<T> {
  for (let tries = input.tries ?? 5; ; tries--) {
    try {
      return await attempt();
    } catch (error) {
      if (tries <= 1 || !isLockTimeout(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, input.lockTimeoutMs));
    }
  }
}
