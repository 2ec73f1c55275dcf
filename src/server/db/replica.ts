import type { Pool } from "pg";
import type { Database } from "./types";

/** How often the replica's progress is measured against the primary's WAL. */
export const REPLICA_POLL_MS = 200;
/** A replica whose last measurement is older than this is treated as down: reads go to the primary. */
export const REPLICA_SILENT_MS = 2_000;
/** Measurements kept while the replica is behind (at REPLICA_POLL_MS, about two minutes of them). */
const MAX_SAMPLES = 600;

export interface ReplicaHandle {
  db: Database;
  /**
   * An instant (ms on this process's monotonic clock, `performance.now()`) such that every transaction the primary
   * had acknowledged before it is visible on the replica; null while the replica cannot be used (not measured yet,
   * unreachable, silent).
   */
  freshAsOf(): number | null;
  close(): Promise<void>;
}

/** A `pg_lsn` ("16/B374D848") as a number that orders like the WAL position. */
export function lsnValue(lsn: string): bigint {
  const [high, low] = lsn.split("/");
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/**
 * Measures how far a streaming replica has replayed, in the primary's terms: every REPLICA_POLL_MS it notes the
 * time, then the primary's flushed WAL position (which covers every commit acknowledged before that time), then the
 * replica's replayed position. The replica is fresh as of the latest noted time whose position it has replayed.
 * WAL positions rather than `pg_last_xact_replay_timestamp()`: an idle primary writes no transactions, and a replica
 * that has everything would look ever older. Clocks of different machines never meet: both instants are this
 * process's. (docs/operations.md, "Pooler and replica".)
 */
export function watchReplica(primary: Pool, replica: Pool, db: Database): ReplicaHandle {
  const samples: { at: number; lsn: bigint }[] = [];
  let fresh: number | null = null;
  let measuredAt = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const measure = async () => {
    const at = performance.now();
    const { rows: primaryRows } = await primary.query<{ lsn: string }>("select pg_current_wal_flush_lsn()::text as lsn");
    samples.push({ at, lsn: lsnValue(primaryRows[0]!.lsn) });
    if (samples.length > MAX_SAMPLES) samples.shift();
    const { rows } = await replica.query<{ standby: boolean; replayed: string | null }>(
      "select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn()::text as replayed",
    );
    const { standby, replayed } = rows[0]!;
    // Not in recovery: the URL names a primary (a promoted replica, or the primary itself), which has everything.
    const position = standby ? (replayed === null ? -1n : lsnValue(replayed)) : null;
    let caughtUp = -1;
    samples.forEach((sample, index) => {
      if (position === null || sample.lsn <= position) caughtUp = index;
    });
    if (caughtUp >= 0) {
      fresh = Math.max(fresh ?? 0, samples[caughtUp]!.at);
      samples.splice(0, caughtUp);
    }
    measuredAt = performance.now();
  };

  const loop = () => {
    running = measure()
      .catch(() => {
        fresh = null; // unreachable (or the primary is): measured again from scratch when it answers
        samples.length = 0;
      })
      .finally(() => {
        // unref: the measurements never keep a process alive that has nothing else to do.
        if (!stopped) timer = setTimeout(loop, REPLICA_POLL_MS).unref();
      });
  };
  loop();

  return {
    db,
    freshAsOf: () => (fresh !== null && performance.now() - measuredAt <= REPLICA_SILENT_MS ? fresh : null),
    async close() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await replica.end();
    },
  };
}
