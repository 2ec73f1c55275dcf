import { newId } from "../../src/lib/ids";
import type { Runtime } from "../../src/server/runtime";
import type { Actor, ServiceContext } from "../../src/server/services/context";

/** A service context as an adapter would build it, for calling verbs directly (tRPC-style callers). */
export function serviceContext(runtime: Runtime, actor: Actor): ServiceContext {
  const requestId = newId("request");
  return { requestId, db: runtime.database.db, actor, log: runtime.log.child({ requestId }), env: runtime.env, now: runtime.now };
}

/** The dashboard user of a merchant, as the session would name it. */
export function merchantUser(merchantId: string): Actor {
  return { type: "user", merchantId, userId: "usr_test" };
}
