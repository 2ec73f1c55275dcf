import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../src/server/db/types";
import { testClient, type TestClient } from "../support/client";
import { openTestDatabase } from "../support/database";
import { openEventStream, recordInvoiceEvent } from "../support/event-stream";
import { registerTestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;
let api: TestClient;
let elsewhere: DatabaseHandle;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  // Another database on the same server: another application, or another test file, sharing the cluster.
  elsewhere = await openTestDatabase({ poolSize: 1 });
});
afterAll(async () => {
  await runtime.close();
  await elsewhere.close();
});

// Only on the PostgreSQL server: PGlite has one database and runs one transaction at a time.
describe("GET /event/stream while another database has a transaction open", () => {
  it("sends a new event within the stream's usual settling time: another database's writer is not ours to wait for", async () => {
    const merchant = await registerTestMerchant(api);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let opened!: () => void;
    const holding = new Promise<void>((resolve) => (opened = resolve));
    // A writing transaction (it has an xid) held open in the other database for as long as the test runs.
    const held = elsewhere.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_current_xact_id()`);
      opened();
      await gate;
    });
    await holding;
    const stream = await openEventStream(runtime, merchant.apiKey);
    try {
      const started = Date.now();
      const invoiceId = await recordInvoiceEvent(api, merchant);
      const [message] = await stream.take(1, 6_000);
      expect(JSON.parse(message!.data).data.id).toBe(invoiceId);
      // Poll (1 s) plus the clock allowance (1 s), with room for a busy machine; before the fix it never came.
      expect(Date.now() - started).toBeLessThan(6_000);
    } finally {
      release();
      await held;
      await stream.close();
    }
  });
});
