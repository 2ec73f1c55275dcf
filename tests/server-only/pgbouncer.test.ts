import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "../../src/env";
import { openServerDatabase } from "../../src/server/db/open";
import { webhookDeliveries } from "../../src/server/db/schema";
import { createLogger } from "../../src/server/log";
import { createRuntime, type Runtime } from "../../src/server/runtime";
import { eventually, spawnTsx, type Spawned } from "../integration/webhooks/processes";
import { startReceiver, type TestReceiver } from "../integration/webhooks/receiver";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { externalId } from "../support/payments";
import { freePort, hasPgbouncer } from "../support/pg-cluster";
import { startPgbouncer, type Pgbouncer } from "../support/pgbouncer";
import { TEST_ENV_DEFAULTS } from "../support/runtime";
import { createServerDatabase, serverQuery } from "../support/server-admin";

// The service and a worker process through Debian's PgBouncer in transaction mode (started here, generated ini),
// with DATABASE_DIRECT_URL for migrations and the worker's LISTEN (docs/operations.md, "Pooler and replica").
const SERVER_CONNECTIONS = 3;
let database: Awaited<ReturnType<typeof createServerDatabase>>;
let bouncer: Pgbouncer;
let runtime: Runtime;
let api: TestClient;
let hooks: TestReceiver;
let shop: TestMerchant;
let worker: Spawned | undefined;

beforeAll(async () => {
  database = await createServerDatabase("pgbouncer");
  // Where the timeouts go behind a pooler: the database's (or role's) settings, not the startup message.
  const name = new URL(database.url).pathname.slice(1);
  await serverQuery(database.url, `alter database "${name}" set statement_timeout = '15s'`);
  await serverQuery(database.url, `alter database "${name}" set idle_in_transaction_session_timeout = '15s'`);
  bouncer = await startPgbouncer(database.url, await freePort(5584, 5585), { poolSize: SERVER_CONNECTIONS });
  const env = parseEnv({ ...TEST_ENV_DEFAULTS, DATABASE_URL: bouncer.url, DATABASE_DIRECT_URL: database.url });
  runtime = createRuntime({ env, database: await openServerDatabase(bouncer.url, { directUrl: database.url, max: 10 }), log: createLogger("silent") });
  api = testClient(runtime);
  hooks = await startReceiver();
  shop = await registerTestMerchant(api, { webhookUrl: hooks.url() });
}, 60_000);
afterAll(async () => {
  if (worker?.child.exitCode === null) {
    worker.child.kill("SIGTERM");
    await worker.exited;
  }
  await runtime?.close();
  await hooks?.close();
  await bouncer?.stop(); // stopped already by the last test; stopping again is harmless
  await database?.drop();
});

const confirm = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  api.post("/payment/confirm", { key: shop.apiKey, body: { amount: "10.00", currency: "EUR", ...body }, headers });

describe.runIf(hasPgbouncer())("through PgBouncer in transaction mode", () => {
  it("answers 60 concurrent confirms from a pool of 10 over 3 server connections, each stored once", async () => {
    const ids = Array.from({ length: 60 }, () => externalId());
    const answers = await Promise.all(ids.map((id) => confirm({ externalId: id })));
    expect(answers.map((answer) => answer.status)).toEqual(ids.map(() => 201));
    const listed = await api.get("/payment", { key: shop.apiKey, query: { limit: 100 } });
    expect(new Set(listed.body.data.map((payment: { externalId: string }) => payment.externalId))).toEqual(new Set(ids));
    // The timeouts the pooler could not carry come from the database's settings, and DateStyle from the pool's SET.
    const settings = await runtime.database.db.execute(sql`select current_setting('statement_timeout') as timeout, current_setting('DateStyle') as style`);
    expect((settings as unknown as { rows: unknown[] }).rows[0]).toEqual({ timeout: "15s", style: "ISO, MDY" });
  });

  it("replays an Idempotency-Key's answer and refuses a different body under it", async () => {
    const body = { externalId: externalId() };
    const first = await confirm(body, { "idempotency-key": "bouncer-1" });
    const again = await confirm(body, { "idempotency-key": "bouncer-1" });
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    expect((await confirm({ externalId: externalId() }, { "idempotency-key": "bouncer-1" })).status).toBe(422);
  });

  it("keeps answering after failed statements, inside and outside a transaction", async () => {
    const divisionByZero = { cause: { code: "22012" } };
    await expect(runtime.database.db.execute(sql`select 1 / 0`)).rejects.toMatchObject(divisionByZero);
    await expect(runtime.database.db.transaction(async (tx) => tx.execute(sql`select 1 / 0`))).rejects.toMatchObject(divisionByZero);
    expect((await confirm({ externalId: externalId() })).status).toBe(201);
  });

  it("delivers webhooks from a worker process through the pooler, woken by LISTEN on the direct connection", async () => {
    // Polling every 60 s: a delivery within seconds of the payment was woken by the notification.
    worker = spawnTsx("scripts/worker.ts", ["--poll", "60s"], { DATABASE_URL: bouncer.url, DATABASE_DIRECT_URL: database.url, LOG_LEVEL: "warn" });
    await eventually(async () => (await runtime.database.db.select().from(webhookDeliveries)).every((row) => row.status === "delivered"), 60_000, "the earlier deliveries");
    const before = hooks.received.length;
    const started = Date.now();
    const paid = await confirm({ externalId: externalId() });
    await eventually(() => hooks.received.some((hook) => hook.body.includes(paid.body.id)), 30_000, "the webhook");
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(hooks.received.length).toBeGreaterThan(before);
    const listeners = await serverQuery<{ n: number }>(database.url, "select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'listen %'");
    expect(listeners[0]!.n).toBe(1);
  }, 120_000);

  it("answers 503 with Retry-After, and fails readiness, while the pooler is down", async () => {
    worker?.child.kill("SIGTERM");
    await worker?.exited;
    await bouncer.stop();
    const answer = await confirm({ externalId: externalId() });
    expect(answer.status).toBe(503);
    expect(answer.body.code).toBe("service_unavailable");
    expect(answer.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await api.get("/health/ready")).status).toBe(503);
  }, 30_000);
});
