import { spawn, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/** Debian's pgbouncer (`apt-get install pgbouncer`; .ci/run installs it). */
export const PGBOUNCER = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].find((file) => existsSync(file));

export interface Pgbouncer {
  /** `serverUrl` with pgbouncer's host and port: the same database, through the pooler. */
  url: string;
  port: number;
  /** The pools now (the admin console's SHOW POOLS): server connections open, and clients waiting for one. */
  pools(): Promise<{ serverConnections: number; clientsWaiting: number }>;
  stop(): Promise<void>;
}

/**
 * PgBouncer in transaction mode in front of the PostgreSQL server of `serverUrl` (trust authentication, as the
 * test servers), on `port`, with a generated ini in a temporary folder. `poolSize` server connections per
 * database and user. The service's startup parameters for timeouts are ignored by the pooler
 * (`ignore_startup_parameters`): docs/operations.md says where they are set instead.
 */
export async function startPgbouncer(serverUrl: string, port: number, options: { poolSize?: number; maxClients?: number } = {}): Promise<Pgbouncer> {
  if (!PGBOUNCER) throw new Error("pgbouncer is not installed (apt-get install pgbouncer)");
  const server = new URL(serverUrl);
  const root = mkdtempSync(path.join(tmpdir(), "pgbouncer-"));
  const ini = path.join(root, "pgbouncer.ini");
  writeFileSync(path.join(root, "users.txt"), `"${decodeURIComponent(server.username || "postgres")}" ""\n`);
  writeFileSync(
    ini,
    [
      "[databases]",
      `* = host=${server.hostname} port=${server.port || 5432}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      `unix_socket_dir =`,
      "auth_type = trust",
      `auth_file = ${path.join(root, "users.txt")}`,
      "pool_mode = transaction",
      `default_pool_size = ${options.poolSize ?? 20}`,
      "min_pool_size = 0",
      "reserve_pool_size = 0",
      `max_client_conn = ${options.maxClients ?? 500}`,
      // The admin console (`psql -p PORT pgbouncer`: SHOW POOLS) for the connecting user.
      `admin_users = ${decodeURIComponent(server.username || "postgres")}`,
      "ignore_startup_parameters = statement_timeout,idle_in_transaction_session_timeout,extra_float_digits",
      "server_reset_query =",
      `logfile = ${path.join(root, "pgbouncer.log")}`,
      `pidfile = ${path.join(root, "pgbouncer.pid")}`,
      "",
    ].join("\n"),
  );
  // pgbouncer refuses to run as root: as root, it runs as the `postgres` user.
  const asPostgres = process.getuid?.() === 0;
  if (asPostgres) chownSync(root, Number(await idOf("-u")), Number(await idOf("-g")));
  const child: ChildProcess = spawn(PGBOUNCER, asPostgres ? ["-u", "postgres", ini] : [ini], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await waitListening(port, () => child.exitCode !== null, () => stderr);
  const url = new URL(serverUrl);
  url.host = `127.0.0.1:${port}`;
  const admin = new URL(url);
  admin.pathname = "/pgbouncer";
  return {
    url: url.toString(),
    port,
    async pools() {
      const { default: pg } = await import("pg");
      const client = new pg.Client({ connectionString: admin.toString() });
      await client.connect();
      try {
        // The console speaks the simple query protocol only: no parameters.
        const { rows } = await client.query<Record<string, string>>("SHOW POOLS");
        const sum = (pick: (row: Record<string, string>) => number) => rows.reduce((total, row) => total + pick(row), 0);
        return {
          serverConnections: sum((row) => ["sv_active", "sv_idle", "sv_used", "sv_tested", "sv_login"].reduce((n, column) => n + Number(row[column] ?? 0), 0)),
          clientsWaiting: sum((row) => Number(row.cl_waiting ?? 0)),
        };
      } finally {
        await client.end();
      }
    },
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM"); // immediate shutdown (SIGINT waits for clients)
      await exited;
      rmSync(root, { recursive: true, force: true });
    },
  };
}

async function idOf(flag: "-u" | "-g"): Promise<string> {
  const { execFileSync } = await import("node:child_process");
  return execFileSync("id", [flag, "postgres"]).toString().trim();
}

async function waitListening(port: number, exited: () => boolean, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    if (exited() || Date.now() > deadline) throw new Error(`pgbouncer did not start: ${stderr().slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
