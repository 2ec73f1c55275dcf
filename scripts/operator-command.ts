// The frame of an operator's command (npm run staff:create, password:reset-link): open the service's database the
// way the server does, act as the system, print a refused input as its failing fields, close. Exit code 1 on a
// refusal or when the embedded database is held by another process (the server: stop it first).
import { getEnv, type Env } from "../src/env";
import { newId } from "../src/lib/ids";
import { DataDirInUseError } from "../src/server/db/data-dir-lock";
import { openDatabase } from "../src/server/db/open";
import type { DatabaseHandle } from "../src/server/db/types";
import { createLogger } from "../src/server/log";
import { createRuntime } from "../src/server/runtime";
import { createServiceContext } from "../src/server/services/create-context";
import type { ServiceContext } from "../src/server/services/context";
import { isServiceError } from "../src/server/services/errors";

/** The service's database, or exit with the reason when another process holds the embedded one. */
export async function openOperatorDatabase(env: Env = getEnv(), exitCode = 1): Promise<DatabaseHandle> {
  return openDatabase(env).catch((error: unknown) => {
    if (!(error instanceof DataDirInUseError)) throw error;
    console.error(error.message);
    process.exit(exitCode);
  });
}

/** Runs `act` as the system on a runtime of its own; a service's refusal is printed and sets exit code 1. */
export async function runAsSystem(act: (ctx: ServiceContext) => Promise<void>): Promise<void> {
  const env = getEnv();
  const database = await openOperatorDatabase(env);
  const runtime = createRuntime({ env, database, log: createLogger(env.LOG_LEVEL) });
  try {
    await act(createServiceContext(runtime, { type: "system" }, newId("request")));
  } catch (error) {
    if (!isServiceError(error)) throw error;
    console.error(error.errors?.map((field) => `${field.path}: ${field.message}`).join("\n") || error.detail);
    process.exitCode = 1;
  } finally {
    await runtime.close();
  }
}
