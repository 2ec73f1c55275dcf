import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../../src/server/services/context";
import { emitEvent } from "../../src/server/services/events/emit";
import { testClient, type TestClient } from "../support/client";
import { merchantUser, serviceContext } from "../support/context";
import { openEventStream } from "../support/event-stream";
import { registerTestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;
let api: TestClient;

beforeAll(async () => {
  runtime = await createTestRuntime({ poolSize: 4 });
  api = testClient(runtime);
});
afterAll(() => runtime.close());

// Only on the PostgreSQL server: two transactions open at once (PGlite runs one at a time).
describe("GET /event/stream and a transaction that commits late", () => {
  it("holds later events back until an earlier, still-open event commits, then sends both in id order", async () => {
    const merchant = await registerTestMerchant(api);
    const ctx = serviceContext(runtime, merchantUser(merchant.merchant.id));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let early!: string;
    let recorded!: () => void;
    const emitted = new Promise<void>((resolve) => (recorded = resolve));
    // The earlier event: emitted inside a transaction that stays open.
    const slow = runtime.database.db.transaction(async (tx) => {
      early = (await emitEvent({ ctx: inTransaction(ctx, tx), input: { type: "webhook.test", data: { message: "early", merchantId: merchant.merchant.id } } })).event.id;
      recorded();
      await gate;
    });
    await emitted;
    const later = await api.post("/invoice", { key: merchant.apiKey, body: { amount: "1.00", currency: "EUR" } });
    expect(later.status).toBe(201);

    const stream = await openEventStream(runtime, merchant.apiKey);
    try {
      // While the earlier event is uncommitted, the later one (visible, with a greater id) must not be sent:
      // a client resuming after it would never see the earlier one.
      await expect(stream.take(1, 2_500)).rejects.toThrow(/only 0 of 1/);
      release();
      await slow;
      const events = (await stream.take(2)).map((message) => JSON.parse(message.data));
      expect(events.map((event) => event.id)[0]).toBe(early);
      expect(events[1].data.id).toBe(later.body.id);
    } finally {
      release();
      await stream.close();
    }
  });
});
