import pino from "pino";
import { describe, expect, it } from "vitest";
import type { Executor } from "../../src/server/db/types";
import type { Runtime } from "../../src/server/runtime";
import { ReadRouting } from "../../src/server/db/read-routing";
import type { ReplicaHandle } from "../../src/server/db/replica";
import type { Database } from "../../src/server/db/types";
import { inTransaction, readingPrimary } from "../../src/server/services/context";
import { createServiceContext, noteWrite } from "../../src/server/services/create-context";

function runtimeCountingChildren() {
  const log = pino({ level: "silent" });
  let children = 0;
  const child = log.child.bind(log);
  log.child = ((...args: Parameters<typeof log.child>) => {
    children++;
    return child(...args);
  }) as typeof log.child;
  const runtime = { database: { db: {} as Executor }, log, env: {}, now: () => new Date() } as unknown as Runtime;
  return { runtime, children: () => children };
}

describe("service context", () => {
  it("makes the request's child logger only when it is used, also through a transaction's context", () => {
    const { runtime, children } = runtimeCountingChildren();
    const ctx = createServiceContext(runtime, { type: "anonymous" }, "req_1");
    const tx = {} as Executor;
    const txCtx = inTransaction(ctx, tx);
    expect(children()).toBe(0);
    expect(txCtx.db).toBe(tx);
    expect(txCtx.requestId).toBe("req_1");
    expect(ctx.db).toBe(runtime.database.db);

    const log = txCtx.log;
    expect(children()).toBe(1);
    expect(ctx.log).toBe(log); // one child per request, whichever context asked first
    expect(children()).toBe(1);
  });

  it("reads through the replica until the actor writes, and through the transaction or the primary when told", () => {
    const primary = { name: "primary" } as unknown as Database;
    const replica: ReplicaHandle = { db: { name: "replica" } as unknown as Database, freshAsOf: () => performance.now() - 5, close: async () => {} };
    const runtime = { database: { db: primary, reads: new ReadRouting(primary, replica) }, log: pino({ level: "silent" }), env: {}, now: () => new Date() } as unknown as Runtime;
    const actor = { type: "user", merchantId: "mer_1", userId: "usr_1" } as const;
    const ctx = createServiceContext(runtime, actor, "req_2");
    expect(ctx.reader).toBe(replica.db);
    expect(ctx.db).toBe(primary);
    const tx = {} as Executor;
    expect(inTransaction(ctx, tx).reader).toBe(tx);
    expect(readingPrimary(ctx).reader).toBe(primary);
    noteWrite(runtime, actor);
    expect(ctx.reader).toBe(primary); // chosen when read: the same context follows the write
    expect(createServiceContext(runtime, { ...actor, userId: "usr_2" }, "req_3").reader).toBe(replica.db);
    expect(createServiceContext(runtime, { type: "system" }, "req_4").reader).toBe(replica.db);
  });
});
