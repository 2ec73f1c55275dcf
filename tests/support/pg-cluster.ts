import { execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

/**
 * A PostgreSQL primary and its streaming replica, made from the machine's PostgreSQL binaries in a temporary folder
 * (initdb, pg_basebackup -R, a second postgres), for tests and benchmarks of the read replica. Both trust local
 * connections; both are stopped and their folder removed by `stop()`.
 */
export const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";
export const hasPostgresBinaries = (): boolean => ["initdb", "pg_ctl", "pg_basebackup"].every((tool) => existsSync(path.join(PG_BIN, tool)));
export const hasPgbouncer = (): boolean => ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].some((file) => existsSync(file));

export interface ReplicatedCluster {
  primaryUrl: string;
  replicaUrl: string;
  /** The two servers' data folders (their postmaster.pid names each server's process). */
  primaryDir: string;
  replicaDir: string;
  /** Stops (true) or resumes (false) the replica's replay of the WAL it receives: it lags while paused. */
  pauseReplay(paused: boolean): Promise<void>;
  /** Stops the replica's server (fast shutdown); `startReplica` starts it again. */
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  /** Waits until the replica has replayed everything the primary has flushed. */
  waitCaughtUp(): Promise<void>;
  stop(): Promise<void>;
}

/** A port in [from, to] that nothing listens on now. */
export async function freePort(from: number, to: number): Promise<number> {
  for (let port = from; port <= to; port++) {
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer().once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port in ${from}-${to}`);
}

/** The binaries refuse to run as root: as root, they run as the `postgres` user. */
function runAs(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  return { uid: Number(execFileSync("id", ["-u", "postgres"]).toString().trim()), gid: Number(execFileSync("id", ["-g", "postgres"]).toString().trim()) };
}

function run(tool: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(PG_BIN, tool), args, { ...runAs(), stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${tool} exited with ${code}: ${stderr.slice(-2000)}`))));
  });
}

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts a primary on `ports[0]` and its streaming replica on `ports[1]`, with a database `database` on both. */
export async function startReplicatedCluster(ports: [number, number], database = "app"): Promise<ReplicatedCluster> {
  const root = mkdtempSync(path.join(tmpdir(), "pg-cluster-"));
  const owner = runAs();
  if (owner.uid !== undefined) chownSync(root, owner.uid, owner.gid!);
  const primaryDir = path.join(root, "primary");
  const replicaDir = path.join(root, "replica");
  const url = (port: number, name = "postgres") => `postgres://postgres@127.0.0.1:${port}/${name}`;
  const pgCtl = (dir: string, action: "start" | "stop", port?: number) =>
    run("pg_ctl", action === "start" ? ["-D", dir, "-l", path.join(root, `${path.basename(dir)}.log`), "-w", "-t", "60", "-o", `-p ${port}`, "start"] : ["-D", dir, "-m", "fast", "-w", "stop"]);
  let started: string[] = [];
  const stop = async () => {
    for (const dir of started.reverse()) await pgCtl(dir, "stop").catch(() => {});
    started = [];
    rmSync(root, { recursive: true, force: true });
  };
  try {
    await run("initdb", ["-D", primaryDir, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale", "C"]);
    // A test cluster: small, local, no durability wanted (fsync off), the socket in its own folder.
    appendFileSync(
      path.join(primaryDir, "postgresql.conf"),
      ["listen_addresses = '127.0.0.1'", `unix_socket_directories = '${root}'`, "fsync = off", "full_page_writes = off", "shared_buffers = 32MB", "max_connections = 100", "wal_level = replica", "max_wal_senders = 4", ""].join("\n"),
    );
    writeFileSync(path.join(primaryDir, "pg_hba.conf"), "local all all trust\nhost all all 127.0.0.1/32 trust\nhost replication all 127.0.0.1/32 trust\n");
    await pgCtl(primaryDir, "start", ports[0]);
    started.push(primaryDir);
    await query(url(ports[0]), `create database "${database}"`);
    await run("pg_basebackup", ["-h", "127.0.0.1", "-p", String(ports[0]), "-U", "postgres", "-D", replicaDir, "-R", "-X", "stream", "--no-sync", "--checkpoint=fast"]);
    await pgCtl(replicaDir, "start", ports[1]);
    started.push(replicaDir);
    await until("the replica to stream", async () => (await query<{ n: number }>(url(ports[0]), "select count(*)::int as n from pg_stat_replication where state = 'streaming'"))[0]!.n === 1);
  } catch (error) {
    await stop();
    throw error;
  }
  const cluster: ReplicatedCluster = {
    primaryUrl: url(ports[0], database),
    replicaUrl: url(ports[1], database),
    primaryDir,
    replicaDir,
    async pauseReplay(paused) {
      await query(cluster.replicaUrl, paused ? "select pg_wal_replay_pause()" : "select pg_wal_replay_resume()");
      if (paused) await until("replay to pause", async () => (await query<{ state: string }>(cluster.replicaUrl, "select pg_get_wal_replay_pause_state() as state"))[0]!.state === "paused");
    },
    async stopReplica() {
      await pgCtl(replicaDir, "stop");
      started = started.filter((dir) => dir !== replicaDir);
    },
    async startReplica() {
      await pgCtl(replicaDir, "start", ports[1]);
      started.push(replicaDir);
    },
    async waitCaughtUp() {
      const [{ lsn }] = (await query<{ lsn: string }>(cluster.primaryUrl, "select pg_current_wal_flush_lsn()::text as lsn")) as [{ lsn: string }];
      await until("the replica to catch up", async () => (await query<{ ok: boolean }>(cluster.replicaUrl, `select pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn as ok`))[0]!.ok);
    },
    stop,
  };
  return cluster;
}
