/**
 * `npx tsx bench/pooler-replica.ts` (also case 12 of `npm run bench`): the deployment of docs/operations.md,
 * "Pooler and replica", measured on a cluster of its own (a primary and a streaming replica made from the
 * machine's PostgreSQL binaries, tests/support/pg-cluster.ts) and Debian's pgbouncer in transaction mode:
 *   1. confirms through PgBouncer against a direct connection (interleaved, median of the rounds);
 *   2. 4 web + 2 worker processes through one PgBouncer pool of 20 server connections: errors, deliveries, and the
 *      most server connections seen;
 *   3. confirm throughput while another key reads the list and the statistics, with those reads on the replica
 *      against on the primary (interleaved). The primary and the replica are pinned to one core each (taskset), as
 *      two servers would be: on one shared pair of cores a replica adds no CPU, which is what it is for.
 * Web processes are the REST pipeline behind node:http (bench/scale/web-process.ts). BENCH_SCALE_SECONDS: seconds
 * per round (default 6), BENCH_REPS rounds per side (default 3). Writes bench/results/pooler-replica-<time>.json.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { externalIdFor } from "./scale/ids";
import { startServer, sleep, type Server } from "./lib/proc";
import { freePort, hasPgbouncer, hasPostgresBinaries, startReplicatedCluster, type ReplicatedCluster } from "../tests/support/pg-cluster";
import { startPgbouncer, type Pgbouncer } from "../tests/support/pgbouncer";

const ROOT = path.resolve(import.meta.dirname, "..");
const SECONDS = Number(process.env.BENCH_SCALE_SECONDS ?? 6);
const REPS = Number(process.env.BENCH_REPS ?? 3);
const AUTH_SECRET = "bench-auth-secret-0123456789abcdefghijklmnop";
const WEB_PORTS = [3281, 3282, 3283, 3284];
const RECEIVER_PORT = 3289;
const PAYMENTS_SEEDED = Number(process.env.BENCH_SCALE_SEED ?? 200_000);
/** Which parts to run (1 pooler against direct, 2 the fleet, 3 the replica); BENCH_SCALE_AA=1: part 1 with both sides direct (a check of the harness). */
const PARTS = (process.env.BENCH_SCALE_PARTS ?? "1,2,3").split(",").map((part) => part.trim());
const AA = ["1", "true"].includes(process.env.BENCH_SCALE_AA ?? "");
/** BENCH_SCALE_SWAP=1: part 3 with the two sides' processes started in the other order (the A/A check's skew favours the second). */
const SWAP = ["1", "true"].includes(process.env.BENCH_SCALE_SWAP ?? "");

const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const logDir = path.join(ROOT, "bench", "results", "logs", `pooler-replica-${stamp}`);
const results: Record<string, unknown> = { seconds: SECONDS, reps: REPS };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round = (value: number, digits = 0) => Math.round(value * 10 ** digits) / 10 ** digits;

function webProcess(name: string, port: number, env: Record<string, string | undefined>): Promise<Server> {
  return startServer({
    name,
    command: "node",
    args: ["--import", "tsx", "bench/scale/web-process.ts"],
    port,
    cwd: ROOT,
    logFile: path.join(logDir, `${name}.log`),
    env: { NODE_ENV: "production", AUTH_SECRET, LOG_LEVEL: "warn", WEBHOOK_WORKER: "off", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", RATE_LIMIT_PER_KEY: "1000000", RATE_LIMIT_PER_IP: "1000000", ...env },
  });
}

async function api<T>(port: number, method: string, route: string, key?: string, body?: unknown): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${port}/api/v1${route}`, {
    method,
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`${method} ${route} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function merchantWithReader(port: number, label: string, webhookUrl?: string) {
  const registered = await api<{ merchant: { id: string }; apiKey: string }>(port, "POST", "/merchant/register", undefined, {
    name: `Bench ${label}`,
    email: `bench-${label}-${Date.now()}@example.com`,
    password: "bench-password-123456",
    ...(webhookUrl ? { webhookUrl } : {}),
  });
  // The dashboard's stand-in: another key of the same merchant, which never writes (its reads may use the replica).
  const reader = await api<{ secret: string }>(port, "POST", "/merchant/api-key", registered.apiKey, { mode: "live", name: "reader" });
  return { id: registered.merchant.id, writer: registered.apiKey, reader: reader.secret };
}

const confirmRequest = (key: string, label: string) => ({
  method: "POST" as const,
  path: "/api/v1/payment/confirm",
  headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
  setupRequest: (request: { body?: string }) => ({ ...request, body: JSON.stringify({ externalId: externalIdFor(label), amount: "10.00", currency: "EUR" }) }),
});

/** Confirm load on the given ports (connections split between them), with an optional reader load beside it. */
async function confirmLoad(ports: number[], key: string, options: { connections?: number; reads?: { key: string; merchantId: string; connections: number } } = {}) {
  const connections = options.connections ?? 16;
  const runs = ports.map((port) =>
    autocannon({ url: `http://127.0.0.1:${port}`, connections: Math.ceil(connections / ports.length), duration: SECONDS, timeout: 10, requests: [confirmRequest(key, `p${port}`)] }),
  );
  const reads = options.reads
    ? ports.map((port) =>
        autocannon({
          url: `http://127.0.0.1:${port}`,
          connections: Math.ceil(options.reads!.connections / ports.length),
          duration: SECONDS,
          timeout: 10,
          requests: [
            { method: "GET", path: "/api/v1/payment?limit=50", headers: { authorization: `Bearer ${options.reads!.key}` } },
            { method: "GET", path: `/api/v1/merchant/${options.reads!.merchantId}/stats`, headers: { authorization: `Bearer ${options.reads!.key}` } },
          ],
        }),
      )
    : [];
  const done = await Promise.all(runs);
  const readDone = await Promise.all(reads);
  const sum = (items: Awaited<ReturnType<typeof autocannon>>[], pick: (result: Awaited<ReturnType<typeof autocannon>>) => number) => items.reduce((total, item) => total + pick(item), 0);
  return {
    confirmsPerSecond: sum(done, (result) => result["2xx"]) / SECONDS,
    confirmErrors: sum(done, (result) => result.errors + result.timeouts + result.non2xx),
    p99: Math.max(...done.map((result) => result.latency.p99)),
    readsPerSecond: sum(readDone, (result) => result["2xx"]) / SECONDS,
    readErrors: sum(readDone, (result) => result.errors + result.timeouts + result.non2xx),
  };
}

/** Pins a server and every process it has started (and will start) to `cpu`. */
function pin(dataDir: string, cpu: number) {
  const postmaster = readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]!.trim();
  const children = execFileSync("pgrep", ["-P", postmaster]).toString().trim().split("\n").filter(Boolean);
  for (const pid of [postmaster, ...children]) execFileSync("taskset", ["-a", "-cp", String(cpu), pid], { stdio: "ignore" });
}

async function main() {
  if (!hasPostgresBinaries() || !hasPgbouncer()) throw new Error("needs the PostgreSQL 15 binaries and pgbouncer (apt-get install pgbouncer)");
  mkdirSync(logDir, { recursive: true });
  const primaryPort = await freePort(5585, 5589);
  const cluster: ReplicatedCluster = await startReplicatedCluster([primaryPort, await freePort(primaryPort + 1, 5589)]);
  let bouncer: Pgbouncer | undefined;
  const servers: Server[] = [];
  const stopAll = async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop()));
  };
  try {
    bouncer = await startPgbouncer(cluster.primaryUrl, await freePort(primaryPort + 2, 5589), { poolSize: 20 });
    const direct = { DATABASE_URL: cluster.primaryUrl };
    const pooled = { DATABASE_URL: bouncer.url, DATABASE_DIRECT_URL: cluster.primaryUrl };

    // 1. Through PgBouncer against direct: one web process each, the same confirm load, interleaved.
    if (PARTS.includes("1")) {
      servers.push(await webProcess("direct", WEB_PORTS[0]!, direct), await webProcess("pooled", WEB_PORTS[1]!, AA ? direct : pooled));
      const one = await merchantWithReader(WEB_PORTS[0]!, "pooler");
      await confirmLoad([WEB_PORTS[0]!], one.writer); // warm-up, both
      await confirmLoad([WEB_PORTS[1]!], one.writer);
      const rounds = { direct: [] as number[], pooled: [] as number[], errors: 0 };
      for (let rep = 0; rep < REPS; rep++) {
        // A B, then B A: neither side always runs right after the warm-up or first in a round.
        const order = [["direct", WEB_PORTS[0]!], ["pooled", WEB_PORTS[1]!]] as const;
        for (const [side, port] of rep % 2 === 0 ? order : [...order].reverse()) {
          const run = await confirmLoad([port], one.writer);
          rounds[side].push(run.confirmsPerSecond);
          rounds.errors += run.confirmErrors;
        }
      }
      results.pooler = { directPerSecond: rounds.direct.map((v) => round(v)), pooledPerSecond: rounds.pooled.map((v) => round(v)), ratio: round(median(rounds.pooled) / median(rounds.direct), 3), errors: rounds.errors };
      console.log("pooler", results.pooler);
      await stopAll();
    }

    // 2. 4 web + 2 worker processes on one pool of 20 server connections.
    if (PARTS.includes("2")) {
      const receiver = await startServer({ name: "receiver", command: "node", args: ["--import", "tsx", "bench/receiver.ts"], port: RECEIVER_PORT, cwd: ROOT, logFile: path.join(logDir, "receiver.log"), env: {} });
      servers.push(receiver);
      for (const [index, port] of WEB_PORTS.entries()) servers.push(await webProcess(`web-${index + 1}`, port, pooled));
      const workers = [1, 2].map((index) => webWorker(index, pooled));
      const shop = await merchantWithReader(WEB_PORTS[0]!, "fleet", `http://127.0.0.1:${RECEIVER_PORT}/hooks`);
      await fetch(`http://127.0.0.1:${RECEIVER_PORT}/reset`, { method: "POST" });
      const seen = { mostServerConnections: 0, mostClientsWaiting: 0 };
      const pooler = bouncer;
      const watching = setInterval(
        () =>
          void pooler.pools().then(
            (now) => {
              seen.mostServerConnections = Math.max(seen.mostServerConnections, now.serverConnections);
              seen.mostClientsWaiting = Math.max(seen.mostClientsWaiting, now.clientsWaiting);
            },
            () => {},
          ),
        200,
      );
      const fleet = await confirmLoad(WEB_PORTS, shop.writer, { connections: 64 });
      // Every confirmed payment's webhook delivered: count the outbox rows, not the answers.
      const outbox = async () => {
        const client = new pg.Client({ connectionString: cluster.primaryUrl, application_name: "bench-observer" });
        await client.connect();
        try {
          const { rows } = await client.query<{ payments: number; deliveries: number; delivered: number }>(
            `select (select count(*)::int from payments where merchant_id = $1) as payments,
                    count(*)::int as deliveries, count(*) filter (where status = 'delivered')::int as delivered
             from webhook_deliveries where merchant_id = $1`,
            [shop.id],
          );
          return rows[0]!;
        } finally {
          await client.end();
        }
      };
      const deadline = Date.now() + 120_000;
      let state = await outbox();
      while (Date.now() < deadline && state.delivered < state.deliveries) {
        await sleep(250);
        state = await outbox();
    }
    clearInterval(watching);
    results.fleet = { confirmsPerSecond: round(fleet.confirmsPerSecond), errors: fleet.confirmErrors, p99Ms: fleet.p99, ...state, ...seen };
    console.log("fleet", results.fleet);
    for (const worker of workers) worker.kill("SIGTERM");
    await stopAll();
    }

    // 3. Reads on the replica against on the primary, the primary and the replica on a core each.
    if (PARTS.includes("3")) {
      pin(cluster.primaryDir, 0);
      pin(cluster.replicaDir, 1);
      const [replicaSidePort, primarySidePort] = SWAP ? [WEB_PORTS[1]!, WEB_PORTS[0]!] : [WEB_PORTS[0]!, WEB_PORTS[1]!];
      const sidesStarted = [
        () => webProcess("with-replica", replicaSidePort, { ...direct, DATABASE_REPLICA_URL: cluster.replicaUrl }),
        () => webProcess("primary-only", primarySidePort, direct),
      ];
      for (const start of SWAP ? sidesStarted.reverse() : sidesStarted) servers.push(await start());
      const reading = await merchantWithReader(primarySidePort, "reads");
      const seeder = new pg.Client(cluster.primaryUrl);
      await seeder.connect();
      await seeder.query(
        `insert into payments (id, merchant_id, external_id, amount, currency, status, confirmed_at, created_at, updated_at)
         select 'pay_s' || lpad(i::text, 25, '0'), $1, 'seed-' || i, '19.99', 'USD', 'confirmed', now() - i * interval '10 seconds', now() - i * interval '10 seconds', now() - i * interval '10 seconds'
         from generate_series(1, $2::int) as i`,
        [reading.id, PAYMENTS_SEEDED],
      );
      await seeder.query("analyze");
      await seeder.end();
      await cluster.waitCaughtUp();
      const reads = { key: reading.reader, merchantId: reading.id, connections: 8 };
      await confirmLoad([replicaSidePort], reading.writer, { reads }); // warm-up, both
      await confirmLoad([primarySidePort], reading.writer, { reads });
      const sides = { replica: [] as number[], primary: [] as number[], readsReplica: [] as number[], readsPrimary: [] as number[], errors: 0 };
      for (let rep = 0; rep < REPS; rep++) {
        for (const side of rep % 2 === 0 ? (["replica", "primary"] as const) : (["primary", "replica"] as const)) {
          const run = await confirmLoad([side === "replica" ? replicaSidePort : primarySidePort], reading.writer, { reads });
          sides[side].push(run.confirmsPerSecond);
          (side === "replica" ? sides.readsReplica : sides.readsPrimary).push(run.readsPerSecond);
          sides.errors += run.confirmErrors + run.readErrors;
        }
    }
    results.replica = {
      seeded: PAYMENTS_SEEDED,
      confirmsWithReadsOnReplica: sides.replica.map((v) => round(v)),
      confirmsWithReadsOnPrimary: sides.primary.map((v) => round(v)),
      readsPerSecondOnReplica: sides.readsReplica.map((v) => round(v)),
      readsPerSecondOnPrimary: sides.readsPrimary.map((v) => round(v)),
      ratio: round(median(sides.replica) / median(sides.primary), 3),
      errors: sides.errors,
    };
    console.log("replica", results.replica);
    }
  } finally {
    await stopAll();
    await bouncer?.stop();
    await cluster.stop();
  }
  const file = path.join(ROOT, "bench", "results", `pooler-replica-${stamp}.json`);
  writeFileSync(file, JSON.stringify(results, null, 2) + "\n");
  console.log(`wrote ${file}`);
}

function webWorker(index: number, env: Record<string, string>) {
  return spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", AUTH_SECRET, LOG_LEVEL: "warn", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  }).once("exit", (code) => code && console.error(`worker ${index} exited with ${code}`));
}

export const benchPoolerReplica = main;
if (import.meta.url === `file://${process.argv[1]}`) await main();
