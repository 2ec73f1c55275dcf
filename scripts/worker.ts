/**
 * `npm run worker`: the background work (webhook delivery and the periodic jobs: src/server/background/) as its
 * own process. Run any number of them against one PostgreSQL database (set WEBHOOK_WORKER=off on the web processes, or keep the inline worker too — the
 * claim query keeps them from delivering one row twice). SIGTERM/SIGINT: stop claiming, finish the
 * attempts in flight, exit.
 *
 * Options: --concurrency <n> (default 256), --poll <duration> (1s), --lease <duration> (60s),
 * --timeout <duration> total per attempt (15s). Durations as in WEBHOOK_RETRY_SCHEDULE: 500ms, 5s, 1m.
 * METRICS_PORT (with METRICS_TOKEN): its metrics at http://<host>:<port>/metrics; OTEL_EXPORTER_OTLP_ENDPOINT:
 * its attempts' traces (docs/operations.md).
 */
import { parseArgs } from "node:util";
import { getEnv, InvalidEnvironmentError } from "@/env";
import { parseDuration } from "@/lib/duration";
import { openDatabase } from "@/server/db/open";
import { createLogger } from "@/server/log";
import { createRuntime } from "@/server/runtime";
import { serveMetrics } from "@/server/http/metrics/serve";
import { startOtlpTracing } from "@/server/tracing/otlp";
import { startBackgroundWork } from "@/server/background/start";
import { WORKER_DEFAULTS } from "@/server/webhooks/worker";

async function main() {
  const { values } = parseArgs({
    options: {
      concurrency: { type: "string" },
      poll: { type: "string" },
      lease: { type: "string" },
      timeout: { type: "string" },
    },
  });
  const env = getEnv();
  if (!env.DATABASE_URL) {
    // One process per embedded data folder (db/data-dir-lock.ts), and that process is the server.
    throw new Error(
      "npm run worker needs DATABASE_URL (a PostgreSQL server). On the embedded database the server's inline worker " +
        "already delivers webhooks (WEBHOOK_WORKER=inline, the default): there is nothing to start.",
    );
  }
  const log = createLogger(env.LOG_LEVEL).child({ process: "webhook-worker", pid: process.pid });
  const stopTracing = env.OTEL_EXPORTER_OTLP_ENDPOINT ? await startOtlpTracing("merchant-payment-service-worker") : null;
  // Workers write and read what they are about to write: a replica would only add a connection and its measurements.
  const database = await openDatabase({ ...env, DATABASE_REPLICA_URL: undefined });
  const runtime = createRuntime({ env, database, log });
  if (stopTracing) runtime.onClose(stopTracing);
  if (env.METRICS_PORT) runtime.onClose((await serveMetrics(runtime, env.METRICS_PORT)).close);
  startBackgroundWork(runtime, {
    concurrency: values.concurrency ? Number(values.concurrency) : WORKER_DEFAULTS.concurrency,
    pollIntervalMs: values.poll ? parseDuration(values.poll) : WORKER_DEFAULTS.pollIntervalMs,
    leaseMs: values.lease ? parseDuration(values.lease) : WORKER_DEFAULTS.leaseMs,
    deps: values.timeout ? { send: { totalTimeoutMs: parseDuration(values.timeout), connectTimeoutMs: Math.min(parseDuration(values.timeout), 5_000) } } : {},
  });
  log.info({ database: database.kind }, "worker ready");
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "stopping: finishing attempts in flight");
    runtime
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        log.error({ err: error }, "shutdown failed");
        process.exit(1);
      });
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((error: unknown) => {
  console.error(error instanceof InvalidEnvironmentError || error instanceof Error ? error.message : error);
  process.exit(1);
});
