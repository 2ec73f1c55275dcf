import { randomBytes } from "node:crypto";
import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events, payments } from "../../src/server/db/schema";
import { READINESS_TIMEOUT_MS } from "../../src/server/services/health/check-readiness";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";
import { serverQuery } from "../support/server-admin";

/**
 * issue 21: the pool did not recover after PostgreSQL dropped its connections under load. 300 confirms at 50
 * concurrent while the service's backends are terminated 4 times; then another merchant's 150 confirms must all
 * succeed, quickly; during the outage every answer is a 2xx or a fast 503 with Retry-After, never a 500 or a
 * hang; and every payment answered 2xx is in the database exactly once, with exactly one event.
 */
/**
 * Bounds the configured timeouts guarantee (src/server/db/open.ts, SERVER_TIMEOUTS): a request stuck on a dead
 * session is ended by the server's 15 s statement / idle-in-transaction timeouts, a connection attempt after 5 s.
 * On an idle machine the answers come in well under a second; on this shared 2-core machine under load, backends
 * take seconds to act on their termination. Before the fix, requests hung past 120 s and recovery never came.
 */
const OUTAGE_BOUND_MS = 25_000;
const RECOVERED_BOUND_MS = 15_000;

let runtime: TestRuntime;
let api: TestClient;
let databaseName: string;
let first: TestMerchant;
let second: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime({ env: { RATE_LIMIT_PER_KEY: "1000000", RATE_LIMIT_PER_IP: "1000000", LOG_LEVEL: "warn" } });
  api = testClient(runtime);
  first = await registerTestMerchant(api);
  second = await registerTestMerchant(api);
  const url = new URL((runtime.database as { url?: string }).url!);
  databaseName = url.pathname.slice(1);
});
afterAll(async () => {
  await runtime?.close();
});

interface Answer {
  externalId: string;
  status: number;
  ms: number;
  retryAfter: string | null;
  code?: string;
}

async function confirmAll(merchant: TestMerchant, total: number, concurrency: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  let next = 0;
  const lane = async () => {
    while (next < total) {
      next++;
      const externalId = `chaos_${randomBytes(6).toString("hex")}`;
      const started = performance.now();
      const response = await api.post("/payment/confirm", {
        key: merchant.apiKey,
        body: { externalId, amount: "10.00", currency: "USD" },
      });
      answers.push({
        externalId,
        status: response.status,
        ms: performance.now() - started,
        retryAfter: response.headers.get("retry-after"),
        code: (response.body as { code?: string } | undefined)?.code,
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return answers;
}

async function terminateBackends(): Promise<number> {
  const rows = await serverQuery(
    process.env.TEST_SERVER_URL!,
    "select pg_terminate_backend(pid) as pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
    [databaseName],
  );
  return rows.length;
}

describe("the PostgreSQL pool after its connections are terminated under load", () => {
  it("answers 2xx or a fast 503 during the outage, recovers by itself, and keeps every 2xx payment once with one event", async () => {
    const load = confirmAll(first, 300, 50);
    let terminated = 0;
    for (let round = 0; round < 4; round++) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      terminated += await terminateBackends();
    }
    const during = await load;
    expect(terminated).toBeGreaterThan(0);

    const unexpected = during.filter((answer) => answer.status !== 201 && answer.status !== 503);
    expect(unexpected, JSON.stringify(unexpected.slice(0, 5))).toEqual([]);
    for (const answer of during.filter((a) => a.status === 503)) {
      expect(answer.code).toBe("service_unavailable");
      expect(answer.retryAfter).toMatch(/^\d+$/);
    }
    const slow = during.filter((answer) => answer.ms > OUTAGE_BOUND_MS);
    expect(slow.map((answer) => `${answer.status} ${answer.code ?? ""} ${Math.round(answer.ms)} ms`)).toEqual([]);

    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const after = await confirmAll(second, 150, 50);
    const failed = after.filter((answer) => answer.status !== 201);
    expect(failed, JSON.stringify(failed.slice(0, 5))).toEqual([]);
    expect(Math.max(...after.map((answer) => answer.ms))).toBeLessThan(RECOVERED_BOUND_MS);

    const ready = await api.get("/health/ready");
    expect(ready.status).toBe(200);

    const db = runtime.database.db;
    for (const [merchant, answers] of [[first, during], [second, after]] as const) {
      for (const answer of answers.filter((a) => a.status === 201)) {
        const rows = await db
          .select({ id: payments.id })
          .from(payments)
          .where(and(eq(payments.merchantId, merchant.merchant.id), eq(payments.externalId, answer.externalId)));
        expect(rows, answer.externalId).toHaveLength(1);
        const [eventCount] = await db.select({ n: count() }).from(events).where(eq(events.subjectId, rows[0]!.id));
        expect(eventCount?.n, answer.externalId).toBe(1);
      }
    }
  }, 120_000);
});

describe("readiness", () => {
  it("answers 503 with Retry-After, within its deadline, when no pooled connection can answer", async () => {
    const stuck = await createTestRuntime({ poolSize: 1 });
    try {
      // The pool's one connection held by a transaction for longer than the readiness deadline.
      const holding = stuck.database.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_sleep(4)`);
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = performance.now();
      const ready = await testClient(stuck).get("/health/ready");
      expect(ready.status).toBe(503);
      expect(ready.body.code).toBe("service_unavailable");
      expect(ready.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(performance.now() - started).toBeLessThan(READINESS_TIMEOUT_MS + 1_500);
      await holding;
      expect((await testClient(stuck).get("/health/ready")).status).toBe(200);
    } finally {
      await stuck.close();
    }
  }, 60_000);
});
