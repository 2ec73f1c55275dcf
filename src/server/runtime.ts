import type { Logger } from "pino";
import { getEnv, type Env } from "@/env";
import { openDatabase } from "@/server/db/open";
import type { DatabaseHandle } from "@/server/db/types";
import { createLogger } from "@/server/log";
import { enableMetrics } from "@/server/metrics/observe";

/**
 * Everything a request needs that outlives it: configuration, the database, the logger.
 * The web process holds one (opened lazily on first use, kept on globalThis so hot reloads reuse it);
 * tests build their own around a test database.
 */
export interface Runtime {
  env: Env;
  database: DatabaseHandle;
  log: Logger;
  now: () => Date;
  /** Registers background work to stop (in reverse order) before the database closes. */
  onClose(closer: () => Promise<void>): void;
  /** Stops background work and closes the database. */
  close(): Promise<void>;
}

export function createRuntime(parts: {
  env: Env;
  database: DatabaseHandle;
  log?: Logger;
  now?: () => Date;
}): Runtime {
  const log = parts.log ?? createLogger(parts.env.LOG_LEVEL);
  // Measured only where someone can scrape it (docs/operations.md).
  if (parts.env.METRICS_TOKEN) enableMetrics();
  const closers: (() => Promise<void>)[] = [];
  const runtime: Runtime = {
    env: parts.env,
    database: parts.database,
    log,
    now: parts.now ?? (() => new Date()),
    onClose(closer) {
      closers.push(closer);
    },
    async close() {
      for (const close of closers.reverse()) await close();
      await parts.database.close();
    },
  };
  return runtime;
}

const globalRef = globalThis as typeof globalThis & { __mpsRuntime?: Promise<Runtime> };

/**
 * The process-wide runtime, opened (and migrated) on first use. It starts no background work: the process's entry
 * point does that (instrumentation-node.ts, scripts/worker.ts: background/start.ts).
 */
export function getRuntime(): Promise<Runtime> {
  globalRef.__mpsRuntime ??= startRuntime().catch((error: unknown) => {
    globalRef.__mpsRuntime = undefined;
    throw error;
  });
  return globalRef.__mpsRuntime;
}

async function startRuntime(): Promise<Runtime> {
  const env = getEnv();
  const log = createLogger(env.LOG_LEVEL);
  const database = await openDatabase(env);
  log.info({ database: database.kind }, "database ready (migrations applied)");
  const runtime = createRuntime({ env, database, log });
  const shutdown = () => {
    runtime.close().finally(() => process.exit(0));
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
  return runtime;
}
