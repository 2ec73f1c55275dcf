import { newId } from "../../src/lib/ids";
import type { Runtime } from "../../src/server/runtime";
import type { Actor, ServiceContext } from "../../src/server/services/context";
import { createServiceContext } from "../../src/server/services/create-context";

/** A service context as an adapter would build it, for calling verbs directly (tRPC-style callers). */
export function serviceContext(runtime: Runtime, actor: Actor): ServiceContext {
  return createServiceContext(runtime, actor, newId("request"));
}

/** The dashboard user of a merchant, as the session would name it. */
export function merchantUser(merchantId: string): Actor {
  return { type: "user", merchantId, userId: "usr_test" };
}
