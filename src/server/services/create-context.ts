import type { Runtime } from "@/server/runtime";
import type { Actor, ServiceContext } from "./context";

/** The one way adapters (REST, tRPC, the worker, scripts) build a service context. */
export function createServiceContext(runtime: Runtime, actor: Actor, requestId: string): ServiceContext {
  return {
    requestId,
    db: runtime.database.db,
    actor,
    log: runtime.log.child({ requestId }),
    env: runtime.env,
    now: runtime.now,
  };
}
