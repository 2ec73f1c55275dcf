// A step of `npm test` as a child process (scripts/checks.mjs, scripts/test.mjs): `done` resolves with its exit code,
// and with its output when kept (to be printed whole when it ends, not interleaved with steps beside it).
import { spawn } from "node:child_process";

/**
 * @param {string} command
 * @param {string[]} args
 * @param {{ env?: Record<string, string>, keepOutput?: boolean }} [options]
 */
export function startStep(command, args, { env = {}, keepOutput = false } = {}) {
  const child = spawn(command, args, {
    stdio: keepOutput ? ["ignore", "pipe", "pipe"] : "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
  });
  let output = "";
  if (keepOutput) for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => (output += chunk));
  /** @type {Promise<{ code: number, output: string }>} */
  const done = new Promise((resolve) => child.on("close", (code) => resolve({ code: code ?? 1, output })));
  return { child, done };
}
