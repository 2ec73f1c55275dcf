import { sql } from "drizzle-orm";
import type { BenchDatabase } from "./env";
import { machineCpuSeconds, treeCpuSeconds } from "./proc";

/** What PostgreSQL's background work, the server and the machine did in one second of a run. */
export interface ActivitySecond {
  /** Checkpoints begun since the previous sample (timed or requested). */
  checkpoints: number;
  /** Autovacuum workers running at the sample. */
  autovacuums: number;
  /** WAL written in that second, in MB (full-page images after a checkpoint make it jump). */
  walMb: number;
  /** CPU seconds the server's process tree used in that second (NaN without a server pid). */
  serverCpu: number;
  /** CPU seconds the whole machine was busy in that second (all cores). */
  machineBusy: number;
}

/**
 * Samples PostgreSQL's background work, the server's CPU and the machine's once a second while a run goes on,
 * so that a dip in throughput can be set beside a checkpoint, an autovacuum, a server that got costlier per
 * request, or a machine that got slower, rather than guessed at. One small query a second on its own connection.
 */
export function sampleActivity(db: Pick<BenchDatabase, "query">, serverPid?: number): { stop(): Promise<ActivitySecond[]> } {
  const seconds: ActivitySecond[] = [];
  let previous: { checkpoints: number; lsn: bigint; server: number; machine: number } | null = null;
  let running = true;
  const sample = async () => {
    const [row] = await db.query<{ checkpoints: string; autovacuums: string; lsn: string }>(sql`
      select (checkpoints_timed + checkpoints_req)::text as checkpoints,
             (select count(*) from pg_stat_activity where backend_type = 'autovacuum worker')::text as autovacuums,
             (pg_current_wal_lsn() - '0/0'::pg_lsn)::text as lsn
      from pg_stat_bgwriter`);
    const current = {
      checkpoints: Number(row!.checkpoints),
      lsn: BigInt(row!.lsn.split(".")[0]!),
      server: serverPid === undefined ? NaN : treeCpuSeconds(serverPid),
      machine: machineCpuSeconds().busy,
    };
    if (previous) {
      seconds.push({
        checkpoints: current.checkpoints - previous.checkpoints,
        autovacuums: Number(row!.autovacuums),
        walMb: Number(current.lsn - previous.lsn) / 1e6,
        serverCpu: current.server - previous.server,
        machineBusy: current.machine - previous.machine,
      });
    }
    previous = current;
  };
  const loop = (async () => {
    await sample();
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await sample();
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return seconds;
    },
  };
}
