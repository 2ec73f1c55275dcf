import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_STREAM, eventStream } from "../../src/server/http/event-stream";
import { testClient, type TestClient } from "../support/client";
import { serviceContext } from "../support/context";
import { openEventStream, recordInvoiceEvent } from "../support/event-stream";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;
let api: TestClient;
let owner: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  owner = await registerTestMerchant(api);
  other = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

const invoiceIds = (messages: { data: string }[]) => messages.map((message) => JSON.parse(message.data).data.id as string);

describe("GET /event/stream", () => {
  it("sends the merchant's backlog in id order, then new events as they are recorded, never another merchant's", async () => {
    const backlog = [await recordInvoiceEvent(api, owner), await recordInvoiceEvent(api, owner)];
    await recordInvoiceEvent(api, other);
    const stream = await openEventStream(runtime, owner.apiKey);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    try {
      const first = await stream.take(2);
      expect(invoiceIds(first)).toEqual(backlog);
      for (const message of first) {
        const event = JSON.parse(message.data);
        expect(Object.keys(event).sort()).toEqual(["createdAt", "data", "id", "type"]);
        expect(message.id).toBe(event.id);
        expect(message.event).toBe("invoice.created");
      }
      expect(first[0]!.id! < first[1]!.id!).toBe(true);
      await recordInvoiceEvent(api, other);
      const live = await recordInvoiceEvent(api, owner);
      expect(invoiceIds(await stream.take(1))).toEqual([live]);
    } finally {
      await stream.close();
    }
  });

  it("loses and repeats nothing across a dropped connection: events recorded meanwhile arrive after Last-Event-ID", async () => {
    const merchant = await registerTestMerchant(api);
    const before = [await recordInvoiceEvent(api, merchant), await recordInvoiceEvent(api, merchant), await recordInvoiceEvent(api, merchant)];
    const first = await openEventStream(runtime, merchant.apiKey);
    const received = await first.take(2);
    await first.close(); // dropped mid-way: the third event was not read
    const meanwhile = [await recordInvoiceEvent(api, merchant), await recordInvoiceEvent(api, merchant)];
    const resumed = await openEventStream(runtime, merchant.apiKey, { lastEventId: received.at(-1)!.id });
    try {
      received.push(...(await resumed.take(3)));
    } finally {
      await resumed.close();
    }
    expect(invoiceIds(received)).toEqual([...before, ...meanwhile]);
    expect(new Set(received.map((message) => message.id)).size).toBe(received.length);
  });

  it("with seconds=0 sends the events so far and ends; an aborted client ends the stream", async () => {
    const merchant = await registerTestMerchant(api);
    const ids = [await recordInvoiceEvent(api, merchant)];
    // The stream sends settled events only (a second behind the database's clock): ask again until it is.
    const sentOnce = async () => invoiceIds(await (await openEventStream(runtime, merchant.apiKey, { seconds: 0 })).rest());
    await expect.poll(sentOnce, { timeout: 15_000, interval: 100 }).toEqual(ids);

    const held = await openEventStream(runtime, merchant.apiKey);
    await held.take(1);
    const started = Date.now();
    held.abort(); // the request's signal only: the server side must end the body by itself
    expect(await held.rest()).toEqual([]);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("sends a heartbeat comment while quiet, and ends by itself when its time is up", async () => {
    const merchant = await registerTestMerchant(api);
    const ctx = serviceContext(runtime, { type: "api_key", merchantId: merchant.merchant.id, keyId: "key_test", livemode: true });
    const stream = eventStream({ ctx, seconds: 1, signal: new AbortController().signal, limits: { pollMs: 50, heartbeatMs: 200 } });
    const started = Date.now();
    const text = await new Response(stream).text();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(text.startsWith("retry: 1000\n\n")).toBe(true);
    expect(text.match(/^: heartbeat$/gm)?.length).toBeGreaterThanOrEqual(3);
    expect(text).not.toContain("id: ");
  });

  it("refuses a malformed Last-Event-ID or seconds with 400 validation_failed naming the field", async () => {
    const badHeader = await api.get("/event/stream", { key: owner.apiKey, headers: { "last-event-id": "pay_123" }, query: { seconds: 0 } });
    expect(badHeader.status).toBe(400);
    expect(badHeader.body.errors[0].path).toBe("headers.last-event-id");
    const overflowing = await api.get("/event/stream", { key: owner.apiKey, query: { after: `evt_8${"z".repeat(25)}`, seconds: 0 } });
    expect(overflowing.status).toBe(400);
    expect(overflowing.body.errors[0].path).toBe("query.after");
    const badSeconds = await api.get("/event/stream", { key: owner.apiKey, query: { seconds: 301 } });
    expect(badSeconds.status).toBe(400);
    expect(badSeconds.body.errors[0].path).toBe("query.seconds");
  });

  it("requires an API key", async () => {
    const anonymous = await api.get("/event/stream", { query: { seconds: 0 } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe("unauthenticated");
  });

  it("holds at most EVENT_STREAM.maxPerMerchant open per merchant: one more answers 429 rate_limited, a closed one frees its slot", async () => {
    const merchant = await registerTestMerchant(api);
    const open = [];
    try {
      for (let i = 0; i < EVENT_STREAM.maxPerMerchant; i++) {
        const stream = await openEventStream(runtime, merchant.apiKey);
        expect(stream.response.status).toBe(200);
        open.push(stream);
      }
      const refused = await api.get("/event/stream", { key: merchant.apiKey });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe("rate_limited");
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      // Another merchant's streams are not counted against this one.
      const others = await openEventStream(runtime, owner.apiKey);
      expect(others.response.status).toBe(200);
      await others.close();

      await open.pop()!.close();
      const again = await openEventStream(runtime, merchant.apiKey);
      expect(again.response.status).toBe(200);
      open.push(again);
      // A client that only aborts its request frees its slot too.
      open.pop()!.abort();
      const afterAbort = await openEventStream(runtime, merchant.apiKey, { seconds: 0 });
      expect(afterAbort.response.status).toBe(200);
      await afterAbort.rest();
    } finally {
      for (const stream of open) await stream.close();
    }
  });
});
