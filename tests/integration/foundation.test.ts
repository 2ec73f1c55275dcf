import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/lib/ids";
import { merchants } from "../../src/server/db/schema";
import { DATABASE_RETRY_AFTER_SECONDS } from "../../src/server/db/unavailable";
import { withTransaction } from "../../src/server/db/transaction";
import { NotFoundError } from "../../src/server/services/errors";
import {
  createCallerFactory,
  createRouter,
  createTrpcContext,
  merchantProcedure,
  publicProcedure,
} from "../../src/server/trpc/init";
import { appRouter } from "../../src/server/trpc/router";
import { testClient } from "../support/client";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await createTestRuntime();
});
afterAll(() => runtime.close());

function merchantRow(id: string) {
  return { id, name: "T", email: `${id}@example.com` };
}

describe("withTransaction", () => {
  it("commits the outer and the inner work together", async () => {
    const [a, b] = [newId("merchant"), newId("merchant")];
    await withTransaction(runtime.database.db, async (tx) => {
      await tx.insert(merchants).values(merchantRow(a));
      await withTransaction(tx, async (inner) => {
        await inner.insert(merchants).values(merchantRow(b));
      });
    });
    const rows = await runtime.database.db.select().from(merchants).where(eq(merchants.id, b));
    expect(rows).toHaveLength(1);
  });

  it("rolls back the inner work when the outer transaction fails: it reused the outer one", async () => {
    const [a, b] = [newId("merchant"), newId("merchant")];
    await expect(
      withTransaction(runtime.database.db, async (tx) => {
        await tx.insert(merchants).values(merchantRow(a));
        await withTransaction(tx, async (inner) => {
          await inner.insert(merchants).values(merchantRow(b));
        });
        throw new Error("later step failed");
      }),
    ).rejects.toThrow("later step failed");
    for (const id of [a, b]) {
      expect(await runtime.database.db.select().from(merchants).where(eq(merchants.id, id))).toHaveLength(0);
    }
  });
});

describe("tRPC", () => {
  const createCaller = createCallerFactory(appRouter);

  it("serves the service layer to the dashboard", async () => {
    const caller = createCaller(createTrpcContext(runtime, null));
    expect(await caller.health.ready()).toEqual({ status: "ready" });
    expect(await caller.health.session()).toBeNull();
  });

  it("turns a ServiceError into the matching tRPC error, with its detail", async () => {
    const router = createRouter({
      missing: publicProcedure.query(() => {
        throw new NotFoundError("payment");
      }),
    });
    const caller = createCallerFactory(router)(createTrpcContext(runtime, null));
    await expect(caller.missing()).rejects.toMatchObject({ code: "NOT_FOUND", message: "No such payment." });
  });

  it("refuses merchant procedures without a session", async () => {
    const router = createRouter({ mine: merchantProcedure("payments.read").query(() => "secret") });
    const caller = createCallerFactory(router)(createTrpcContext(runtime, null));
    await expect(caller.mine()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("readiness", () => {
  it("answers 503 service_unavailable when the database does not answer", async () => {
    const broken = await createTestRuntime();
    await broken.database.close();
    const response = await testClient(broken).get("/health/ready");
    expect(response.status).toBe(503);
    expect(response.body.code).toBe("service_unavailable");
    expect(response.headers.get("retry-after")).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
  });
});
