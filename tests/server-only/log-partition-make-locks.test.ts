import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/lib/ids";
import { rowsOf } from "../../src/server/db/rows";
import { DAY_LOGS, ensureLogPartitions, nextPeriod, partitionName, periodStart } from "../../src/server/db/sql/log-partitions";
import { maintainLogPartitions, PARTITION_DAYS_AHEAD, PARTITION_MONTHS_AHEAD } from "../../src/server/services/events/partitions";
import { testClient } from "../support/client";
import { registerTestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

const DAY_MS = 24 * 3_600_000;
let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await createTestRuntime({ poolSize: 4 });
});
afterAll(async () => {
  await runtime.close();
});

const exists = async (table: string) =>
  rowsOf<{ found: boolean }>(await runtime.database.db.execute(sql`select to_regclass(${table}::text) is not null as found`))[0]!.found;

// Only on the PostgreSQL server: two transactions at once (PGlite runs one at a time).
describe("making the logs' partitions a week ahead beside today's writes", () => {
  it("does not wait for a transaction writing today's event, nor make it wait: the next day ahead is made at once", async () => {
    const { merchant } = await registerTestMerchant(testClient(runtime));
    const now = runtime.now();
    await maintainLogPartitions(runtime.database.db, { now, retentionDays: 30 });

    // The outbox's write of today, its transaction still open (as a payment's is while it commits).
    let insertedNow!: () => void;
    let finish!: () => void;
    const inserted = new Promise<void>((resolve) => (insertedNow = resolve));
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const eventId = newId("event");
    const writer = runtime.database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into events (id, merchant_id, livemode, type, data, subject_id, created_at)
        values (${eventId}, ${merchant.id}, true, 'payment.confirmed', '{}'::jsonb, null, ${now.toISOString()}::timestamptz)`);
      insertedNow();
      await finished;
    });
    await Promise.race([inserted, writer]);

    // A day later the job makes the day a week ahead of it; with the log's exclusive lock it would wait for the
    // writer above until its lock timeout, and every write after it would wait behind it.
    const tomorrow = new Date(now.getTime() + DAY_MS);
    const ahead = nextPeriod(periodStart(tomorrow, "day"), "day", PARTITION_DAYS_AHEAD);
    const started = Date.now();
    const made = await ensureLogPartitions(runtime.database.db, {
      now: tomorrow,
      daysAhead: PARTITION_DAYS_AHEAD,
      monthsAhead: PARTITION_MONTHS_AHEAD,
      lockTimeoutMs: 300,
    });
    expect(made).toBe(DAY_LOGS.length);
    expect(Date.now() - started).toBeLessThan(3_000);
    for (const log of DAY_LOGS) expect(await exists(partitionName(log, ahead))).toBe(true);

    finish();
    await writer;
    const [row] = rowsOf<{ partition: string }>(
      await runtime.database.db.execute(sql`select tableoid::regclass::text as partition from events where id = ${eventId}`),
    );
    expect(row?.partition).toBe(partitionName(DAY_LOGS[0]!, periodStart(now, "day")));
  });
});
