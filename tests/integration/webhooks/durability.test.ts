import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ServerResponse } from "node:http";
import { and, count, eq, inArray } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { parseEnv } from "../../../src/env";
import { openEmbeddedDatabase } from "../../../src/server/db/open";
import { deliveryAttempts, webhookDeliveries } from "../../../src/server/db/schema";
import type { Database } from "../../../src/server/db/types";
import { createLogger } from "../../../src/server/log";
import { createRuntime, type Runtime } from "../../../src/server/runtime";
import { testClient } from "../../support/client";
import { testDatabaseKind } from "../../support/database";
import { embeddedTemplate } from "../../support/embedded-template";
import { registerTestMerchant } from "../../support/merchants";
import { createTestRuntime, TEST_ENV_DEFAULTS } from "../../support/runtime";
import { eventually, spawnTsx, type Spawned } from "./processes";
import { startReceiver, type TestReceiver } from "./receiver";
import { seedDueDeliveries } from "./seed";

/**
 * "No event lost, none doubled" (issue 6 point 3) with real processes: the web process's start-up path and
 * `npm run worker` (scripts/worker.ts) run as children of this test and deliver to a receiver here.
 */

const spawned: Spawned[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const process of spawned.splice(0)) if (process.child.exitCode === null) process.child.kill("SIGKILL");
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(): Promise<TestReceiver> {
  const started = await startReceiver();
  cleanups.push(() => started.close());
  return started;
}

function spawn(script: string, args: string[], env: Record<string, string>): Spawned {
  const child = spawnTsx(script, args, env);
  spawned.push(child);
  return child;
}

async function statuses(db: Database, ids: string[]) {
  const rows = await db
    .select({ status: webhookDeliveries.status, n: count() })
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.id, ids))
    .groupBy(webhookDeliveries.status);
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}

describe("a web process restarted with pending deliveries", () => {
  it("sends them after start-up, then shuts down gracefully on SIGTERM", async () => {
    const hooks = await receiver();
    // The database the web process starts on: the test's server database, or an embedded one on disk
    // (PGlite admits one process per data folder, so this process closes it before the child opens it).
    let runtime: Runtime;
    let childEnv: Record<string, string>;
    let dataDir: string | undefined;
    if (testDatabaseKind() === "server") {
      const testRuntime = await createTestRuntime();
      cleanups.push(() => testRuntime.close());
      runtime = testRuntime;
      childEnv = { DATABASE_URL: (testRuntime.database as { url?: string }).url! };
    } else {
      dataDir = mkdtempSync(path.join(tmpdir(), "mps-restart-"));
      const dir = dataDir;
      cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      const env = parseEnv({ ...TEST_ENV_DEFAULTS, DATA_DIR: dataDir });
      runtime = createRuntime({ env, database: await openEmbeddedDatabase(dataDir, { startFrom: await embeddedTemplate() }), log: createLogger("silent") });
      childEnv = { DATA_DIR: dataDir };
    }
    const shop = await registerTestMerchant(testClient(runtime), { webhookUrl: hooks.url() });
    const { eventIds, deliveryIds } = await seedDueDeliveries(runtime.database.db, { merchantId: shop.merchant.id, url: hooks.url(), count: 5 });
    if (dataDir) await runtime.close();

    const web = spawn("tests/integration/webhooks/fixtures/web-process.ts", [], { ...childEnv, WEBHOOK_WORKER: "inline" });
    await web.waitFor("web process ready");
    await eventually(() => hooks.received.length >= eventIds.length, 60_000, "the pending deliveries");
    web.child.kill("SIGTERM");
    expect(await web.exited).toBe(0);

    expect([...hooks.countById().entries()].sort()).toEqual(eventIds.map((id) => [id, 1]).sort());
    if (dataDir) {
      runtime = createRuntime({ env: runtime.env, database: await openEmbeddedDatabase(dataDir), log: createLogger("silent") });
      cleanups.push(() => runtime.close());
    }
    expect(await statuses(runtime.database.db, deliveryIds)).toEqual({ delivered: 5 });
  }, 120_000);
});

// The next two need several processes on one database, which only the PostgreSQL server allows
// (embedded PGlite belongs to one process); the embedded project covers lease expiry and
// concurrent workers in one process (engine.test.ts).
if (testDatabaseKind() === "server") {
  describe("npm run worker processes on the PostgreSQL server", () => {
    const workerArgs = ["--poll", "50ms", "--lease", "3s", "--timeout", "1s"];

    it("re-attempts and delivers a delivery whose worker was SIGKILLed mid-attempt, after the lease", async () => {
      const runtime = await createTestRuntime();
      cleanups.push(() => runtime.close());
      const env = { DATABASE_URL: (runtime.database as { url?: string }).url! };
      const hooks = await receiver();
      let held: ServerResponse | undefined;
      hooks.respond = (_request, response) => {
        // The first attempt never gets an answer: its worker is killed while waiting for it.
        if (!held) held = response;
        else response.writeHead(200).end("ok");
      };
      const shop = await registerTestMerchant(testClient(runtime), { webhookUrl: hooks.url() });

      const first = spawn("scripts/worker.ts", [...workerArgs, "--concurrency", "1"], env);
      await first.waitFor("worker ready");
      const { eventIds, deliveryIds } = await seedDueDeliveries(runtime.database.db, { merchantId: shop.merchant.id, url: hooks.url(), count: 1 });
      await eventually(() => held !== undefined, 30_000, "the first attempt");
      first.child.kill("SIGKILL");
      expect(await first.exited).toBe("SIGKILL");
      held!.destroy();
      expect(await statuses(runtime.database.db, deliveryIds)).toEqual({ delivering: 1 });

      const second = spawn("scripts/worker.ts", workerArgs, env);
      await eventually(async () => (await statuses(runtime.database.db, deliveryIds)).delivered === 1, 30_000, "the re-attempt");
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);

      expect(hooks.countById().get(eventIds[0]!)).toBe(2);
      const attempts = await runtime.database.db
        .select()
        .from(deliveryAttempts)
        .where(and(eq(deliveryAttempts.deliveryId, deliveryIds[0]!)));
      // The killed attempt left no record (it never finished); the re-attempt did.
      expect(attempts.map((attempt) => attempt.statusCode)).toEqual([200]);
    }, 120_000);

    it("two worker processes deliver 1,000 events to a counting receiver: each exactly once", async () => {
      const runtime = await createTestRuntime();
      cleanups.push(() => runtime.close());
      const env = { DATABASE_URL: (runtime.database as { url?: string }).url!, LOG_LEVEL: "info" };
      const hooks = await receiver();
      const shop = await registerTestMerchant(testClient(runtime), { webhookUrl: hooks.url() });

      const workers = [1, 2].map(() => spawn("scripts/worker.ts", [...workerArgs, "--concurrency", "8"], env));
      await Promise.all(workers.map((worker) => worker.waitFor("worker ready")));
      const { eventIds, deliveryIds } = await seedDueDeliveries(runtime.database.db, { merchantId: shop.merchant.id, url: hooks.url(), count: 1000 });
      await eventually(async () => (await statuses(runtime.database.db, deliveryIds)).delivered === 1000, 150_000, "1,000 deliveries");
      // A worker finishes its attempts in flight before it exits on SIGTERM: once both have exited, every request
      // they sent (a double delivery, were there one) has reached the receiver, and the count below is final.
      for (const worker of workers) worker.child.kill("SIGTERM");
      expect(await Promise.all(workers.map((worker) => worker.exited))).toEqual([0, 0]);

      const counts = hooks.countById();
      expect(eventIds.filter((id) => counts.get(id) !== 1)).toEqual([]);
      expect(hooks.received).toHaveLength(1000);
      // Both processes took part.
      const attemptsBy = workers.map((worker) => worker.output().split('"msg":"webhook attempt"').length - 1);
      expect(attemptsBy[0]! + attemptsBy[1]!).toBe(1000);
      expect(Math.min(...attemptsBy)).toBeGreaterThan(0);
    }, 200_000);
  });
}
