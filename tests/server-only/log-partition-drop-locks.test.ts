import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliveryDepsFor } from "../../src/server/background/start";
import { rowsOf } from "../../src/server/db/rows";
import { DAY_LOGS, partitionName, periodStart } from "../../src/server/db/sql/log-partitions";
import { maintainLogPartitions } from "../../src/server/services/events/partitions";
import { testClient, type TestClient } from "../support/client";
import { deliverDueNow } from "../support/deliver-due-now";
import { registerTestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";
import { startReceiver, type TestReceiver } from "../integration/webhooks/receiver";

const DAY_MS = 24 * 3_600_000;
let runtime: TestRuntime;
let api: TestClient;
let receiver: TestReceiver;

beforeAll(async () => {
  runtime = await createTestRuntime({ poolSize: 4 });
  api = testClient(runtime);
  receiver = await startReceiver((_request, response) => response.writeHead(200).end());
});
afterAll(async () => {
  await receiver.close();
  await runtime.close();
});

const exists = async (table: string) =>
  rowsOf<{ found: boolean }>(await runtime.database.db.execute(sql`select to_regclass(${table}::text) is not null as found`))[0]!.found;

// Only on the PostgreSQL server: two transactions at once (PGlite runs one at a time).
describe("dropping a day of the logs beside the worker's reads", () => {
  it("never waits on a reader that waits on it: a transaction reading deliveries, then events, goes on at once, and the day is dropped", async () => {
    const merchant = await registerTestMerchant(api, { webhookUrl: receiver.url("/drop") });
    await maintainLogPartitions(runtime.database.db, { now: runtime.now(), retentionDays: 30 });
    const day = periodStart(runtime.now(), "day");
    for (let i = 0; i < 3; i++) {
      const confirmed = await api.post("/payment/confirm", { key: merchant.apiKey, body: { externalId: `drop-${i}`, amount: "1.00", currency: "EUR" } });
      expect(confirmed.status).toBe(201);
    }
    await deliverDueNow(deliveryDepsFor(runtime, { schedule: [0] }));
    runtime.advanceTime(31 * DAY_MS);

    // The worker's order: a claimed delivery is read, then its event (webhooks/claim.ts), in one transaction here so
    // that the deliveries lock is held while the events read starts.
    let readEventsAfterMs = Number.NaN;
    let dropping!: Promise<number>;
    await runtime.database.db.transaction(async (tx) => {
      await tx.execute(sql`select count(*) from webhook_deliveries`);
      dropping = maintainLogPartitions(runtime.database.db, { now: runtime.now(), retentionDays: 30 });
      await new Promise((resolve) => setTimeout(resolve, 200)); // the drop is now waiting for the deliveries lock
      const started = performance.now();
      await tx.execute(sql`select count(*) from events`);
      readEventsAfterMs = performance.now() - started;
    });
    await dropping;
    // Holding the events log while waiting for the deliveries log, the drop made this read wait for its lock timeout
    // (500 ms), gave up, and tried again.
    expect(readEventsAfterMs).toBeLessThan(250);
    for (const log of DAY_LOGS) expect(await exists(partitionName(log, day)), log.table).toBe(false);
  });
});
