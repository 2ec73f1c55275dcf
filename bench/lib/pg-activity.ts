import type postgres from "postgres";

/** What PostgreSQL's background work was doing in one second of a run. */
export interface PgSecond {
  /** Checkpoints begun since the previous sample (timed or requested). */
  checkpoints: number;
  /** Autovacuum workers running at the sample. */
  autovacuums: number;
  /** WAL written in that second, in MB (full-page images after a checkpoint make it jump). */
  walMb: number;
}

/**
 * Samples PostgreSQL's background work once a second while a run goes on, so that a dip in throughput can be
 * set beside a checkpoint or an autovacuum rather than guessed at. One small query a second on its own
 * connection.
 */
export function samplePgActivity(sql: postgres.Sql): { stop(): Promise<PgSecond[]> } {
  const seconds: PgSecond[] = [];
  let previous: { checkpoints: number; lsn: bigint } | null = null;
  let running = true;
  const sample = async () => {
    const [row] = await sql<{ checkpoints: string; autovacuums: string; lsn: string }[]>`
      select (checkpoints_timed + checkpoints_req)::text as checkpoints,
             (select count(*) from pg_stat_activity where backend_type = 'autovacuum worker')::text as autovacuums,
             (pg_current_wal_lsn() - '0/0'::pg_lsn)::text as lsn
      from pg_stat_bgwriter`;
    const current = { checkpoints: Number(row!.checkpoints), lsn: BigInt(row!.lsn.split(".")[0]!) };
    if (previous) {
      seconds.push({
        checkpoints: current.checkpoints - previous.checkpoints,
        autovacuums: Number(row!.autovacuums),
        walMb: Number(current.lsn - previous.lsn) / 1e6,
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
