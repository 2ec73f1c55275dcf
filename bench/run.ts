/**
 * `npm run bench` — see BENCHMARKS.md. Creates its own database on the PostgreSQL server, builds the
 * production app and the floor app (bench/floor), starts them beside a bare node:http server, runs the cases (BENCH_CASES, default all) and
 * writes bench/results/<time>.{md,json}. BENCH_QUICK=1: seconds instead of minutes (smoke test).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { caseFloor } from "./cases/floor";
import { config } from "./lib/config";
import { registerMerchant, seedPayments, type BenchContext } from "./lib/context";
import { createDatabase, FLOOR_DIR, machine, nextBuild, ROOT, startNext, TUNED, tunedProjectDir } from "./lib/env";
import { startServer, type Server } from "./lib/proc";
import { Report } from "./lib/report";

const CASES: Record<string, (ctx: BenchContext) => Promise<unknown>> = {
  "1": caseFloor,
  "2": async (ctx) => (await import("./cases/full-stack")).caseFullStack(ctx),
  "3": async (ctx) => (await import("./cases/soak")).caseSoak(ctx),
  "4": async (ctx) => (await import("./cases/paging")).casePaging(ctx),
  "5": async (ctx) => (await import("./cases/webhooks")).caseWebhooks(ctx),
  "6": async (ctx) => (await import("./cases/embedded")).caseEmbedded(ctx),
  "7": async (ctx) => (await import("./cases/noisy-neighbour")).caseNoisyNeighbour(ctx),
  "8": async (ctx) => (await import("./cases/reconciliation")).caseReconciliation(ctx),
  "9": async (ctx) => (await import("./cases/checkout")).caseCheckout(ctx),
  "10": async (ctx) => (await import("./cases/search")).caseSearch(ctx),
  "11": async (ctx) => (await import("./cases/metrics")).caseMetrics(ctx),
  // A cluster, PgBouncer and web processes of its own (ports 3281-3289, 5585-5589): bench/pooler-replica.ts.
  "12": async () => (await import("./pooler-replica")).benchPoolerReplica(),
  "13": async (ctx) => (await import("./cases/refunds")).caseRefunds(ctx),
};

async function main() {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const resultsDir = path.join(ROOT, "bench", "results");
  const logDir = path.join(resultsDir, "logs", stamp);
  mkdirSync(logDir, { recursive: true });
  const report = new Report(resultsDir);
  const info = machine();
  report.data.machine = info;
  report.data.config = config;
  report.text(`# npm run bench — ${new Date().toISOString()}${config.quick ? " (QUICK smoke mode: not a measurement)" : ""}`);
  report.text("");
  report.text(`Machine: ${info.cpu}, ${info.memoryGiB} GiB, Linux ${info.kernel}; load average at start: ${info.loadAverage}`);
  report.text(`Node ${info.node}, next ${info.next}, drizzle-orm ${info.drizzle}, node-postgres ${info.pg}, PGlite ${info.pglite}, autocannon ${info.autocannon}`);

  if (!config.skipBuild) nextBuild();

  const db = await createDatabase();
  const servers: Server[] = [];
  let port = config.basePort;
  try {
    // Next first: its start-up applies the migrations to the fresh database.
    const next = await startNext({ name: "next", port: port++, logFile: path.join(logDir, "next.log"), env: { DATABASE_URL: db.url } });
    servers.push(next);
    const bare = await startServer({
      name: "bare",
      command: "node",
      args: ["--import", "tsx", "bench/bare-server.ts"],
      port: port++,
      logFile: path.join(logDir, "bare.log"),
      env: { DATABASE_URL: db.url, NODE_ENV: "production" },
    });
    servers.push(bare);
    const floorReady = "/api/bench/constant";
    const floor = await startNext({
      name: "floor",
      port: port++,
      logFile: path.join(logDir, "floor.log"),
      cwd: FLOOR_DIR,
      readyPath: floorReady,
      env: { DATABASE_URL: db.url },
    });
    servers.push(floor);
    const floorTuned = await startNext({
      name: "floor-tuned",
      port: port++,
      logFile: path.join(logDir, "floor-tuned.log"),
      cwd: tunedProjectDir(),
      readyPath: floorReady,
      env: { DATABASE_URL: db.url, NODE_OPTIONS: TUNED.nodeOptions },
    });
    servers.push(floorTuned);

    const merchant = await registerMerchant(next, "main", "http://127.0.0.1:9/bench");
    await seedPayments(db, merchant.id, 10_000, "a");
    const [newest] = await db.query<{ id: string }>(sql`select id from payments where merchant_id = ${merchant.id} order by created_at desc limit 1`);
    const paymentId = newest!.id;
    await db.query(sql`analyze`);

    const ctx: BenchContext = {
      db,
      next,
      bare,
      floor,
      floorTuned,
      merchant,
      paymentId,
      report,
      logDir,
      targets: (server) => ({ servers: { server: server.pid }, pg: { query: db.query, database: db.name } }),
      nextPort: () => port++,
    };
    const failed: string[] = [];
    for (const id of config.cases) {
      const run = CASES[id];
      if (!run) throw new Error(`unknown case ${id}`);
      const started = Date.now();
      try {
        await run(ctx);
      } catch (error) {
        // One broken case must not cost the others' numbers: report it and go on.
        failed.push(id);
        const cause = (error as Error).cause;
        report.text(`\n**Case ${id} failed:** ${(error as Error).stack ?? String(error)}${cause ? `\ncause: ${String((cause as Error).stack ?? cause)}` : ""}`);
      }
      console.log(`  (case ${id}: ${Math.round((Date.now() - started) / 1000)} s)`);
    }
    if (failed.length > 0) process.exitCode = 1;
    report.text("");
    report.text(`Load average at the end: ${machine().loadAverage}`);
  } finally {
    for (const server of servers.reverse()) await server.stop();
    await db.drop();
    const saved = report.save(stamp);
    report.save("latest");
    console.log(`\nSaved bench/results/${stamp}.md (${saved.length} bytes) and bench/results/latest.md`);
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
