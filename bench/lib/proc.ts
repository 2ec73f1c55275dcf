import { spawn, type ChildProcess } from "node:child_process";
import { openSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const TICKS_PER_SECOND = 100; // getconf CLK_TCK on Linux

function statFields(pid: number, tid?: number): string[] | null {
  try {
    const text = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a process (or one of its threads) has used so far, or 0 when it is gone. */
export function cpuSeconds(pid: number, tid?: number): number {
  const fields = statFields(pid, tid);
  if (!fields) return 0;
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/**
 * CPU seconds of a process's main thread alone (its JavaScript, not the garbage collector's or libuv's helper
 * threads): a Node process cannot go faster than this thread once it is busy all the time.
 */
export function mainThreadCpuSeconds(pid: number): number {
  return cpuSeconds(pid, pid);
}

/** The process and its descendants (`next start` may fork). */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const ppid = Number(statFields(Number(entry))?.[1]);
    if (!Number.isFinite(ppid)) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

export function treeCpuSeconds(root: number): number {
  return processTree(root).reduce((sum, pid) => sum + cpuSeconds(pid), 0);
}

export interface Server {
  name: string;
  port: number;
  child: ChildProcess;
  pid: number;
  stop(): Promise<void>;
}

/** Starts a server process (stdout/stderr to `logFile`) and waits until `readyPath` answers 200. */
export async function startServer(options: {
  name: string;
  command: string;
  args: string[];
  port: number;
  env: Record<string, string | undefined>;
  logFile: string;
  readyPath?: string;
  timeoutMs?: number;
  cwd?: string;
}): Promise<Server> {
  const log = openSync(options.logFile, "a");
  // BENCH_PROFILE=1: every node server writes a V8 CPU profile under profiles/<name>/ beside its log when it
  // stops (one file per thread: the largest is the main thread)
  // (summarise with bench/tools/cpuprofile-summary.mjs).
  const profile =
    options.command === "node" && process.env.BENCH_PROFILE
      ? ["--cpu-prof", `--cpu-prof-dir=${path.join(path.dirname(options.logFile), "profiles", options.name)}`]
      : [];
  const child = spawn(options.command, [...profile, ...options.args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, PORT: String(options.port) },
    stdio: ["ignore", log, log],
  });
  let exited: number | null = null;
  child.on("exit", (code) => {
    exited = code ?? -1;
  });
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  const url = `http://127.0.0.1:${options.port}${options.readyPath ?? "/api/v1/health"}`;
  for (;;) {
    if (exited !== null) throw new Error(`${options.name} exited with ${exited}; see ${options.logFile}`);
    try {
      const response = await fetch(url);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${options.name} did not become ready at ${url}; see ${options.logFile}`);
    }
    await sleep(200);
  }
  return {
    name: options.name,
    port: options.port,
    child,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited !== null) return resolve();
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * CPU seconds the whole machine has spent busy so far (every process, kernel work included: PostgreSQL's
 * WAL writer and autovacuum too, which no per-process figure catches), and the seconds it has existed for,
 * summed over cores. `busy` over `total` between two readings is how busy the machine was.
 */
export function machineCpuSeconds(): { busy: number; total: number } {
  const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!.trim().split(/\s+/);
  // user nice system idle iowait irq softirq steal (guest time is already inside user and nice)
  const ticks = fields.slice(0, 8).map(Number);
  const total = ticks.reduce((sum, value) => sum + value, 0);
  const idle = ticks[3]! + ticks[4]!;
  return { busy: (total - idle) / TICKS_PER_SECOND, total: total / TICKS_PER_SECOND };
}
