import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliveryDepsFor } from "../../../src/server/background/start";
import { rowsOf } from "../../../src/server/db/rows";
import { DAY_LOGS, listPartitions, MONTH_LOGS, partitionName, periodStart } from "../../../src/server/db/sql/log-partitions";
import { maintainLogPartitions, PARTITION_DAYS_AHEAD, PARTITION_MONTHS_AHEAD } from "../../../src/server/services/events/partitions";
import { pruneExpiredEvents } from "../../../src/server/services/events/prune";
import { testClient, type TestClient } from "../../support/client";
import { deliverDueNow } from "../../support/deliver-due-now";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { startReceiver, type TestReceiver } from "./receiver";

/*
 * The time-partitioned logs (docs/operations.md, "Partitions and retention") on a fresh database: writes land in a
 * default partition until the service makes the day's partition, which carves them out of it; a day past the
 * retention is dropped whole, except the events still being delivered, which are carried over and kept.
 */

const DAY_MS = 24 * 3_600_000;
let runtime: TestRuntime;
let api: TestClient;
let receiver: TestReceiver;

const maintain = () => maintainLogPartitions(runtime.database.db, { now: runtime.now(), retentionDays: 30 });
const deliverAll = () => deliverDueNow(deliveryDepsFor(runtime, { schedule: [0] }));
const confirm = (merchant: TestMerchant, externalId: string, status = "confirmed") =>
  api.post("/payment/confirm", { key: merchant.apiKey, body: { externalId, amount: "1.00", currency: "EUR", status } });
const count = async (table: string) =>
  Number(rowsOf<{ n: string }>(await runtime.database.db.execute(sql.raw(`select count(*)::text as n from "${table}"`)))[0]!.n);
const exists = async (table: string) =>
  rowsOf<{ found: boolean }>(await runtime.database.db.execute(sql`select to_regclass(${table}::text) is not null as found`))[0]!.found;
const today = () => periodStart(runtime.now(), "day");
const [eventsLog, deliveriesLog, attemptsLog] = DAY_LOGS as [(typeof DAY_LOGS)[number], (typeof DAY_LOGS)[number], (typeof DAY_LOGS)[number]];

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  receiver = await startReceiver((_request, response) => response.writeHead(200).end());
});
afterAll(async () => {
  await receiver.close();
  await runtime.close();
});

describe("the logs' partitions", () => {
  it("takes writes in the default partition before a day's partition exists, and moves them into it when it is made", async () => {
    const merchant = await registerTestMerchant(api, { webhookUrl: receiver.url("/early") });
    await confirm(merchant, "early-1");
    await deliverAll();
    expect(await count("events_default")).toBeGreaterThan(0);
    expect(await count("delivery_attempts_default")).toBeGreaterThan(0);

    expect(await maintain()).toBeGreaterThan(0);
    for (const table of ["events", "webhook_deliveries", "delivery_attempts"]) expect(await count(`${table}_default`), table).toBe(0);
    expect(await count(partitionName(eventsLog, today()))).toBeGreaterThan(0);
    expect(await count(partitionName(deliveriesLog, today()))).toBeGreaterThan(0);
    expect(await count(partitionName(attemptsLog, today()))).toBeGreaterThan(0);
    // What the merchant sees is unchanged: the event, its delivery and the attempt.
    const listed = (await api.get("/webhook/delivery", { key: merchant.apiKey })).body.data as { id: string; status: string }[];
    expect(listed.map((delivery) => delivery.status)).toEqual(["delivered"]);
    const detail = await api.get(`/webhook/${listed[0]!.id}`, { key: merchant.apiKey });
    expect(detail.status).toBe(200);
    expect(detail.body.attempts).toHaveLength(1);
  });

  it("makes the coming week's day partitions of every day log and the coming months' of the audit log, once however often it runs", async () => {
    await maintain();
    expect(await maintain()).toBe(0);
    for (const log of DAY_LOGS) {
      const starts = (await listPartitions(runtime.database.db, log)).map((partition) => partition.start.getTime());
      for (let n = 0; n <= PARTITION_DAYS_AHEAD; n++) expect(starts, log.table).toContain(today().getTime() + n * DAY_MS);
    }
    const months = (await listPartitions(runtime.database.db, MONTH_LOGS[0]!)).map((partition) => partition.start.toISOString().slice(0, 7));
    expect(months.length).toBeGreaterThanOrEqual(PARTITION_MONTHS_AHEAD + 1);
    expect(months).toContain(runtime.now().toISOString().slice(0, 7));
    // Deliveries flow through the partitions just made.
    const merchant = await registerTestMerchant(api, { webhookUrl: receiver.url("/made") });
    await confirm(merchant, "made-1");
    expect(await deliverAll()).toBe(1);
    expect(await count("events_default")).toBe(0);
  });

  it("drops a day past the retention whole, carrying over an event still being delivered until it is done", async () => {
    const merchant = await registerTestMerchant(api, { webhookUrl: receiver.url("/old") });
    await maintain();
    const day = today();
    for (let i = 0; i < 3; i++) await confirm(merchant, `old-${i}`);
    await deliverAll();
    const later = await api.post("/webhook/endpoint", { key: merchant.apiKey, body: { url: receiver.url("/later"), eventTypes: ["payment.failed"] } });
    expect(later.status).toBe(201);
    await confirm(merchant, "old-waiting", "failed"); // its delivery to /later is pending: not attempted yet
    const events = async () => (await api.get("/event", { key: merchant.apiKey, query: { limit: "100" } })).body.data as { type: string }[];
    const before = (await events()).length;
    expect(before).toBe(4); // three payments confirmed, one failed

    runtime.advanceTime(29 * DAY_MS);
    await maintain();
    expect(await exists(partitionName(eventsLog, day))).toBe(true);

    runtime.advanceTime(2 * DAY_MS);
    await maintain();
    for (const log of DAY_LOGS) expect(await exists(partitionName(log, day)), log.table).toBe(false);
    // The waiting event is kept with its pending delivery, now in the default partition; the finished ones are gone.
    const kept = await events();
    expect(kept).toHaveLength(1);
    expect(kept[0]!.type).toBe("payment.failed");
    const pending = (await api.get("/webhook/delivery", { key: merchant.apiKey, query: { status: "pending" } })).body.data as { endpointId: string }[];
    expect(pending.map((delivery) => delivery.endpointId)).toContain(later.body.endpoint.id);
    // The next run leaves the carried rows where they are: no partition made again for an expired day, none dropped.
    expect(await maintain()).toBe(0);
    for (const log of DAY_LOGS) expect(await exists(partitionName(log, day)), log.table).toBe(false);
    expect(await count("events_default")).toBe(1);

    // Once delivered, the row-by-row retention deletes it with its deliveries and attempts.
    expect(await pruneExpiredEvents(runtime.database.db, { now: runtime.now(), retentionDays: 30 })).toBe(0);
    expect(await deliverAll()).toBeGreaterThan(0);
    expect(await pruneExpiredEvents(runtime.database.db, { now: runtime.now(), retentionDays: 30 })).toBe(1);
    expect(await events()).toHaveLength(0);
    expect((await api.get("/webhook/delivery", { key: merchant.apiKey })).body.data).toEqual([]);
  });

  it("lets any number of processes maintain the partitions at once", async () => {
    runtime.advanceTime(3 * DAY_MS);
    const results = await Promise.all([maintain(), maintain(), maintain()]);
    expect(results.reduce((sum, n) => sum + n, 0)).toBeGreaterThan(0);
    expect(await maintain()).toBe(0);
  });
});
