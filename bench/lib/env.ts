import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import path from "node:path";
import type { SQL } from "drizzle-orm";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import { serverQuery } from "../../tests/support/server-admin";
import { AUTH_SECRET, config } from "./config";
import { startServer, type Server } from "./proc";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** The harness's own access to the bench database (seeding, holding deliveries back, reading counts). */
export interface BenchDatabase {
  name: string;
  url: string;
  /** The rows of one statement (drizzle's `sql` template; a JS array becomes a `(…)` list). */
  query<T = Record<string, unknown>>(statement: SQL): Promise<T[]>;
  /** drizzle on the same pool of 4 connections, for transactions. */
  drizzle: NodePgDatabase;
  drop(): Promise<void>;
}

/** A database of its own on the PostgreSQL server, dropped at the end (kept with BENCH_KEEP_DATABASE, to look into). */
export async function createDatabase(): Promise<BenchDatabase> {
  const name = `bench_${process.pid}_${Date.now().toString(36)}`;
  await serverQuery(config.adminUrl, `create database ${name}`);
  const url = new URL(config.adminUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
  pool.on("error", () => {});
  const db = drizzle({ client: pool });
  return {
    name,
    url: url.toString(),
    query: async <T>(statement: SQL) => (await db.execute(statement)).rows as T[],
    drizzle: db,
    async drop() {
      await pool.end();
      if (process.env.BENCH_KEEP_DATABASE) console.log(`kept database ${name}`);
      else await serverQuery(config.adminUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/** The benchmark floor: a Next.js app of its own (bench/floor), built and started beside the real one. */
export const FLOOR_DIR = path.join(ROOT, "bench", "floor");

const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");

/** A checkout's own Next.js when it has one (another checkout), else this one's (the floor app). */
function nextBinOf(dir: string): string {
  const own = path.join(dir, "node_modules", "next", "dist", "bin", "next");
  return existsSync(own) ? own : NEXT_BIN;
}

/** `next build` of the app and of the floor app. */
export function nextBuild() {
  for (const dir of [ROOT, FLOOR_DIR]) buildProject(dir);
}

function buildProject(dir: string) {
  execFileSync("node", [NEXT_BIN, "build"], {
    cwd: dir,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
  });
}

/**
 * What configuration alone can cut from Next.js's per-request work (case 1, "tuned"), applied to the same
 * build: `next start` reads next.config at start-up, so a directory that links to this build with another
 * next.config runs the same code under other run-time options. Build-time options (output: "standalone")
 * cannot be varied this way; see BENCHMARKS.md.
 */
export const TUNED = {
  nextConfig: { poweredByHeader: false, compress: false },
  /** A larger young generation: fewer scavenges for Next.js's many short-lived objects per request. */
  nodeOptions: "--max-semi-space-size=32",
};

export function tunedProjectDir(source = FLOOR_DIR): string {
  const dir = path.join(ROOT, "bench", "results", `tuned-${path.basename(source)}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  symlinkSync(path.join(source, ".next"), path.join(dir, ".next"));
  for (const entry of ["node_modules", "package.json", "drizzle"]) symlinkSync(path.join(ROOT, entry), path.join(dir, entry));
  writeFileSync(path.join(dir, "next.config.mjs"), `export default ${JSON.stringify(TUNED.nextConfig)};\n`);
  return dir;
}

/** A production build under `next start`, configured for benchmarking (see BENCHMARKS.md). */
export function startNext(options: {
  name: string;
  port: number;
  logFile: string;
  env: Record<string, string | undefined>;
  /** Run from another project directory (the floor app, a tuned variant, another checkout). */
  cwd?: string;
  /** A path that answers 200 once it serves (default: the app's /api/v1/health). */
  readyPath?: string;
  /** The Node.js binary (default: `node` on PATH, the project's pinned one under npm). */
  node?: string;
}): Promise<Server> {
  return startServer({
    name: options.name,
    command: options.node ?? "node",
    args: [nextBinOf(options.cwd ?? ROOT), "start", "-p", String(options.port), "-H", "127.0.0.1"],
    port: options.port,
    logFile: options.logFile,
    cwd: options.cwd,
    readyPath: options.readyPath,
    env: {
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      AUTH_SECRET,
      LOG_LEVEL: config.logLevel,
      // No worker drains deliveries during HTTP runs (case 5 starts its own), and they may point at loopback.
      WEBHOOK_WORKER: "off",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      // The per-key / per-IP limits (100 and 20 req/s by default) would otherwise measure the limiter's 429s.
      RATE_LIMIT_PER_KEY: "1000000",
      RATE_LIMIT_PER_IP: "1000000",
      // Case 9 sends each checkout load from an address of its own (X-Forwarded-For), as many payers would.
      TRUSTED_PROXY_HOPS: "1",
      // In-process counters: a shared Redis would carry counts (and register's 10/h) across runs.
      REDIS_URL: undefined,
      ...options.env,
    },
  });
}

export function machine() {
  const run = (command: string, args: string[]) => {
    try {
      return execFileSync(command, args, { encoding: "utf8" }).trim();
    } catch {
      return "?";
    }
  };
  const pkg = (name: string) => {
    try {
      return (JSON.parse(readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
    } catch {
      return "?";
    }
  };
  return {
    cpu: `${cpus().length} × ${cpus()[0]?.model ?? "?"}`,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    kernel: run("uname", ["-r"]),
    node: process.version,
    next: pkg("next"),
    drizzle: pkg("drizzle-orm"),
    pg: pkg("pg"),
    pglite: pkg("@electric-sql/pglite"),
    autocannon: pkg("autocannon"),
    loadAverage: run("cat", ["/proc/loadavg"]),
  };
}
