import type { Logger } from "pino";
import type { Runtime } from "@/server/runtime";
import { writerOf, type Actor, type RequestClient, type ServiceContext } from "./context";

/**
 * The one way adapters (REST, tRPC, the worker, scripts) build a service context. `client` is the request's
 * address and User-Agent (`requestClient`), written into the audit log.
 */
export function createServiceContext(runtime: Runtime, actor: Actor, requestId: string, client?: RequestClient): ServiceContext {
  let log: Logger | undefined;
  const { db, reads } = runtime.database;
  return {
    requestId,
    db,
    // Chosen when read, not when the context is made: the replica's progress moves during a request.
    get reader() {
      return reads.reader(writerOf(actor));
    },
    actor,
    // Made on first use: most requests never log through their context, and a child logger costs a few µs.
    get log() {
      return (log ??= runtime.log.child({ requestId }));
    },
    env: runtime.env,
    now: runtime.now,
    client,
  };
}

/**
 * Adapters call this when a request that may change data has finished (REST's non-GET requests, tRPC mutations,
 * the dashboard's forms), so the same actor's next reads see the change (db/read-routing.ts).
 */
export function noteWrite(runtime: Runtime, actor: Actor): void {
  runtime.database.reads.wrote(writerOf(actor));
}
