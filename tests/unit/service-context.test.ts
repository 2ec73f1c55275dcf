import pino from "pino";
import { describe, expect, it } from "vitest";
import type { Executor } from "../../src/server/db/types";
import type { Runtime } from "../../src/server/runtime";
import { inTransaction } from "../../src/server/services/context";
import { createServiceContext } from "../../src/server/services/create-context";

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
});
