import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { TEST_ENV_DEFAULTS } from "../../support/runtime";

const ROOT = path.resolve(import.meta.dirname, "../../..");

export interface Spawned {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
  waitFor(text: string, timeoutMs?: number): Promise<void>;
}

/** Runs a TypeScript entry point (scripts/worker.ts, a fixture) as a real child process from the project root. */
export function spawnTsx(script: string, args: string[], env: Record<string, string>): Spawned {
  // `node --import tsx`, not the tsx CLI: the CLI runs the script in a grandchild, so a SIGKILL sent to it
  // would orphan the real process instead of killing it.
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: ROOT,
    env: { ...TEST_ENV_DEFAULTS, NODE_ENV: "test", LOG_LEVEL: "info", PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => child.on("exit", (code, signal) => resolve(code ?? signal ?? "unknown")));
  return {
    child,
    output: () => output,
    exited,
    async waitFor(text, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!output.includes(text)) {
        if (child.exitCode !== null) throw new Error(`${script} exited (${child.exitCode}) before "${text}":\n${output}`);
        if (Date.now() > deadline) throw new Error(`Timed out waiting for "${text}" from ${script}:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/** Polls `check` until it is true or the deadline passes. */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 60_000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
