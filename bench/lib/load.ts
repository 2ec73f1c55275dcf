import autocannon, { type RequestSpec } from "autocannon";
import { sql } from "drizzle-orm";
import type { BenchDatabase } from "./env";
import { treeCpuSeconds } from "./proc";

export interface LoadSpec {
  url: string;
  connections: number;
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Builds each request (a fresh body per POST). */
  setupRequest?: RequestSpec["setupRequest"];
  /** Several requests, sent in turn by each connection (a mix); overrides method/headers/body. */
  requests?: RequestSpec[];
  /** Record responses per second (case 3). */
  perSecond?: boolean;
}

export interface LoadResult {
  rps: number;
  requests: number;
  p50: number;
  p99: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  status5xx: number;
  /** CPU seconds during the run, by process group, and µs per request. */
  cpu: Record<string, { seconds: number; usPerRequest: number }>;
  perSecond?: number[];
}

/** Where CPU is counted: server process trees, and the PostgreSQL backends of the bench database. */
export interface CpuTargets {
  servers: Record<string, number>;
  pg?: { query: BenchDatabase["query"]; database: string };
}

async function backendPids(target: CpuTargets["pg"]): Promise<number[]> {
  if (!target) return [];
  const rows = await target.query<{ pid: number }>(sql`select pid from pg_stat_activity where datname = ${target.database}`);
  return rows.map((row) => row.pid);
}

function snapshot(pids: number[]): Map<number, number> {
  return new Map(pids.map((pid) => [pid, treeCpuSeconds(pid)]));
}

export async function runLoad(spec: LoadSpec, targets: CpuTargets): Promise<LoadResult> {
  const serversBefore = Object.fromEntries(Object.entries(targets.servers).map(([name, pid]) => [name, treeCpuSeconds(pid)]));
  const pgBefore = snapshot(await backendPids(targets.pg));
  const selfBefore = process.cpuUsage();

  const buckets: number[] = [];
  let started = 0;
  let status5xx = 0;
  const instance = autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.duration,
    timeout: 10,
    requests: spec.requests ?? [
      {
        method: spec.method ?? "GET",
        // autocannon calls whatever keys are present: leave absent ones out.
        ...(spec.headers ? { headers: spec.headers } : {}),
        ...(spec.body ? { body: spec.body } : {}),
        ...(spec.setupRequest ? { setupRequest: spec.setupRequest } : {}),
      },
    ],
  });
  instance.on("start", () => {
    started = Date.now();
  });
  instance.on("response", (_client: unknown, statusCode: number) => {
    if (statusCode >= 500) status5xx++;
    if (spec.perSecond) {
      const second = Math.floor((Date.now() - started) / 1000);
      buckets[second] = (buckets[second] ?? 0) + 1;
    }
  });
  const result = await instance;

  const self = process.cpuUsage(selfBefore);
  const pgAfter = snapshot(await backendPids(targets.pg));
  const requests = result["1xx"] + result["2xx"] + result["3xx"] + result["4xx"] + result["5xx"];
  const perRequest = (seconds: number) => (requests > 0 ? (seconds * 1e6) / requests : 0);
  const cpu: LoadResult["cpu"] = {};
  for (const [name, pid] of Object.entries(targets.servers)) {
    const seconds = treeCpuSeconds(pid) - serversBefore[name]!;
    cpu[name] = { seconds, usPerRequest: perRequest(seconds) };
  }
  if (targets.pg) {
    let seconds = 0;
    for (const [pid, after] of pgAfter) seconds += after - (pgBefore.get(pid) ?? 0);
    cpu.postgres = { seconds, usPerRequest: perRequest(seconds) };
  }
  const loadSeconds = (self.user + self.system) / 1e6;
  cpu.autocannon = { seconds: loadSeconds, usPerRequest: perRequest(loadSeconds) };

  return {
    rps: requests / result.duration,
    requests,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    status5xx,
    cpu,
    perSecond: spec.perSecond ? Array.from(buckets, (count) => count ?? 0) : undefined,
  };
}
