import type { Logger } from "pino";
import type { Runtime } from "@/server/runtime";
import type { Actor, ServiceContext } from "./context";

/** The one way adapters (REST, tRPC, the worker, scripts) build a service context. */
export function createServiceContext(runtime: Runtime, actor: Actor, requestId: string): ServiceContext {
  let log: Logger | undefined;
  return {
    requestId,
    db: runtime.database.db,
    actor,
    // Made on first use: most requests never log through their context, and a child logger costs a few µs.
    get log() {
      return (log ??= runtime.log.child({ requestId }));
    },
    env: runtime.env,
    now: runtime.now,
  };
}
