import { Writable } from "node:stream";
import { parseEnv, type Env } from "../../src/env";
import { createLogger } from "../../src/server/log";
import { createRuntime, type Runtime } from "../../src/server/runtime";
import { openTestDatabase } from "./database";

export const TEST_ENV_DEFAULTS: Record<string, string> = {
  NODE_ENV: "test",
  AUTH_SECRET: "test-secret-test-secret-test-secret-0123",
  LOG_LEVEL: "info",
  WEBHOOK_WORKER: "off",
  WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
  WEBHOOK_RETRY_SCHEDULE: "0,20ms,40ms",
};

export interface TestRuntime extends Runtime {
  /** Every log line written, as text, for asserting that secrets never reach the logs. */
  logs: string[];
  /** Moves the injected clock (`now`) forward. */
  advanceTime(ms: number): void;
}

/** A runtime on a fresh test database, with captured logs and a movable clock. */
export async function createTestRuntime(
  options: { env?: Record<string, string>; poolSize?: number } = {},
): Promise<TestRuntime> {
  const env: Env = parseEnv({ ...TEST_ENV_DEFAULTS, ...options.env });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  const database = await openTestDatabase({ poolSize: options.poolSize });
  let offset = 0;
  const runtime = createRuntime({
    env,
    database,
    log: createLogger(env.LOG_LEVEL, sink),
    now: () => new Date(Date.now() + offset),
  });
  return Object.assign(runtime, {
    logs,
    advanceTime(ms: number) {
      offset += ms;
    },
  });
}
