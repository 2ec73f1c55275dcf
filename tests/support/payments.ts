import { randomBytes } from "node:crypto";
import type { Runtime } from "../../src/server/runtime";
import type { ServiceContext, Actor } from "../../src/server/services/context";

/** A unique externalId, so test cases never collide inside one test file's database. */
export function externalId(prefix = "tx"): string {
  return `${prefix}_${randomBytes(6).toString("hex")}`;
}

/** A service context for calling verbs directly (staff verbs have no REST route). */
export function serviceContext(runtime: Runtime, actor: Actor): ServiceContext {
  return { requestId: "req_test", db: runtime.database.db, actor, log: runtime.log, env: runtime.env, now: runtime.now };
}
