import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "../../src/env";
import { openServerDatabase } from "../../src/server/db/open";
import { REPLICA_SILENT_MS } from "../../src/server/db/replica";
import { createLogger } from "../../src/server/log";
import { createRuntime, type Runtime } from "../../src/server/runtime";
import { testClient, type TestClient } from "../support/client";
import { serviceContext } from "../support/context";
import { dashboardAs, merchantSession, submitted } from "../support/dashboard";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { externalId } from "../support/payments";
import { freePort, hasPostgresBinaries, startReplicatedCluster, type ReplicatedCluster } from "../support/pg-cluster";
import { TEST_ENV_DEFAULTS } from "../support/runtime";

// DATABASE_REPLICA_URL against a real streaming replica of a cluster made here (initdb, pg_basebackup -R, a second
// postgres): which server answers which read, and what a user sees while the replica lags or is gone.
let cluster: ReplicatedCluster;
let runtime: Runtime;
let api: TestClient;
let shop: TestMerchant;

beforeAll(async () => {
  const primaryPort = await freePort(5581, 5582); // 5584-5585: the pooler test; 5585-5589: bench case 12
  cluster = await startReplicatedCluster([primaryPort, await freePort(primaryPort + 1, 5583)]);
  const env = parseEnv({ ...TEST_ENV_DEFAULTS, DATABASE_URL: cluster.primaryUrl, DATABASE_REPLICA_URL: cluster.replicaUrl });
  const database = await openServerDatabase(cluster.primaryUrl, { replicaUrl: cluster.replicaUrl, max: 4 });
  runtime = createRuntime({ env, database, log: createLogger("silent") });
  api = testClient(runtime);
  shop = await registerTestMerchant(api);
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  await cluster?.stop();
});

const isStandby = async (db: { execute: (query: ReturnType<typeof sql>) => Promise<unknown> }) =>
  ((await db.execute(sql`select pg_is_in_recovery() as standby`)) as { rows: { standby: boolean }[] }).rows[0]!.standby;
const confirm = async () => {
  const response = await api.post("/payment/confirm", { key: shop.apiKey, body: { externalId: externalId(), amount: "12.00", currency: "EUR" } });
  expect(response.status).toBe(201);
  return response.body.id as string;
};
const keyList = async () => ((await api.get("/payment", { key: shop.apiKey, query: { limit: 100 } })).body.data as { id: string }[]).map((payment) => payment.id);
const dashboard = () => dashboardAs(runtime, merchantSession(shop));
const dashboardList = async () => (await dashboard().payments.list({ limit: 100 })).data.map((payment) => payment.id);
const lagMs = () => runtime.database.reads.lagMs()!;

describe.runIf(hasPostgresBinaries())("reads with DATABASE_REPLICA_URL", () => {
  it("sends a user's lists and statistics to the replica once it has everything, and writes to the primary", async () => {
    await expect.poll(lagMs, { timeout: 10_000 }).toBeLessThan(1_000);
    const user = serviceContext(runtime, { type: "user", merchantId: shop.merchant.id, userId: merchantSession(shop).id });
    expect(await isStandby(user.reader)).toBe(true);
    expect(await isStandby(user.db)).toBe(false);

    const paid = await confirm();
    await cluster.waitCaughtUp();
    await expect.poll(dashboardList, { timeout: 10_000 }).toContain(paid);
    expect((await dashboard().payments.stats({})).payments.total).toBe(1);
  });

  it("while the replica lags: the writer sees its own writes, others see the replica's older state, and the lag is reported", async () => {
    await cluster.pauseReplay(true);
    try {
      const paid = await confirm();
      // The API key that wrote reads from the primary: its list and statistics have the payment at once.
      expect(await keyList()).toContain(paid);
      expect((await api.get(`/merchant/${shop.merchant.id}/stats`, { key: shop.apiKey })).body.payments.total).toBe(2);
      // Another reader of the same merchant (the dashboard user) is served by the replica, which has not replayed it.
      expect(await dashboardList()).not.toContain(paid);
      expect((await dashboard().payments.stats({})).payments.total).toBe(1);

      // The dashboard user's own change is in what they read next, while the replica still lags.
      const invoice = await dashboard().invoices.create(submitted({ amount: "3.00", currency: "EUR" }));
      expect((await dashboard().invoices.list({})).data.map((row) => row.id)).toContain(invoice.id);
      expect(await dashboardList()).toContain(paid); // from the primary now, so the other write is there too

      await expect.poll(lagMs, { timeout: 15_000 }).toBeGreaterThan(5_000);
      expect((await dashboard().health.replicaLag()).lagSeconds).toBeGreaterThanOrEqual(5);
    } finally {
      await cluster.pauseReplay(false);
    }
    await expect.poll(lagMs, { timeout: 10_000 }).toBeLessThan(1_000);
    expect((await dashboard().health.replicaLag()).lagSeconds).toBeNull();
  });

  it("falls back to the primary when the replica is down, and goes back to it when it returns", async () => {
    await cluster.stopReplica();
    const paid = await confirm();
    const anotherUser = serviceContext(runtime, { type: "user", merchantId: shop.merchant.id, userId: "usr_other" });
    // Within the silence bound every read is the primary's: lists answer, with the newest data.
    await expect.poll(() => isStandby(anotherUser.reader).catch(() => "failed"), { timeout: REPLICA_SILENT_MS + 5_000 }).toBe(false);
    expect(await dashboardList()).toContain(paid);
    expect(lagMs()).toBe(Infinity);

    await cluster.startReplica();
    await expect.poll(() => isStandby(anotherUser.reader).catch(() => "failed"), { timeout: 30_000 }).toBe(true);
  }, 60_000);
});
