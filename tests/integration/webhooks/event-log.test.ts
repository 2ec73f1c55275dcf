import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events } from "../../../src/server/db/schema";
import { pruneExpiredEvents } from "../../../src/server/services/events/prune";
import { toEvent } from "../../../src/server/services/events/schemas";
import { deliveryDepsFor } from "../../../src/server/background/start";
import { testClient, type TestClient } from "../../support/client";
import { deliverDueNow } from "../../support/deliver-due-now";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { startReceiver, type TestReceiver } from "./receiver";

let runtime: TestRuntime;
let api: TestClient;
let receiver: TestReceiver;
let shop: TestMerchant;
let other: TestMerchant;

const confirm = (merchant: TestMerchant, externalId: string, status = "confirmed") =>
  api.post("/payment/confirm", { key: merchant.apiKey, body: { externalId, amount: "1.00", currency: "EUR", status } });
const createInvoice = (merchant: TestMerchant) => api.post("/invoice", { key: merchant.apiKey, body: { amount: "1.00", currency: "EUR" } });
const deliverAll = () => deliverDueNow(deliveryDepsFor(runtime, { schedule: [0] }));

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  receiver = await startReceiver((request, response) => response.writeHead(request.path === "/down" ? 500 : 200).end());
  shop = await registerTestMerchant(api, { webhookUrl: receiver.url("/shop") });
  other = await registerTestMerchant(api);
});
afterAll(async () => {
  await receiver.close();
  await runtime.close();
});

describe("the event log", () => {
  let t0: string;
  let paymentId: string;
  beforeAll(async () => {
    t0 = runtime.now().toISOString();
    paymentId = (await confirm(shop, "log-1", "pending")).body.id;
    runtime.advanceTime(1_000);
    await confirm(shop, "log-1", "confirmed");
    runtime.advanceTime(1_000);
    await createInvoice(shop);
    runtime.advanceTime(1_000);
    await confirm(other, "log-other");
  });

  it("lists the merchant's events newest first, rendered as {id, type, createdAt, data}", async () => {
    const page = await api.get("/event", { key: shop.apiKey, query: { since: t0 } });
    expect(page.status).toBe(200);
    expect(page.body.data.map((event: { type: string }) => event.type)).toEqual(["invoice.created", "payment.confirmed", "payment.pending"]);
    expect(Object.keys(page.body.data[1]).sort()).toEqual(["createdAt", "data", "id", "type"]);
    const [row] = await runtime.database.db.select().from(events).where((await import("drizzle-orm")).eq(events.id, page.body.data[1].id));
    expect(page.body.data[1]).toEqual(toEvent(row!));
    expect(page.body.data[1].data).toMatchObject({ id: paymentId, status: "confirmed" });
  });

  it("filters by exact type, by prefix, by time window and by subject", async () => {
    const types = async (query: Record<string, string>) =>
      (await api.get("/event", { key: shop.apiKey, query: { since: t0, ...query } })).body.data.map((event: { type: string }) => event.type);
    expect(await types({ type: "payment.confirmed" })).toEqual(["payment.confirmed"]);
    expect(await types({ type: "payment.*" })).toEqual(["payment.confirmed", "payment.pending"]);
    expect(await types({ type: "invoice.*" })).toEqual(["invoice.created"]);
    expect(await types({ subjectId: paymentId })).toEqual(["payment.confirmed", "payment.pending"]);
    const oneSecondIn = new Date(Date.parse(t0) + 1_000).toISOString();
    expect(await types({ until: oneSecondIn })).toEqual(["payment.pending"]);
    expect(await types({ since: oneSecondIn, type: "payment.*" })).toEqual(["payment.confirmed"]);
  });

  it("pages with a cursor that only works on this merchant's log", async () => {
    const first = await api.get("/event", { key: shop.apiKey, query: { since: t0, limit: "2" } });
    expect(first.body).toMatchObject({ hasMore: true });
    const second = await api.get("/event", { key: shop.apiKey, query: { since: t0, limit: "2", cursor: first.body.nextCursor } });
    expect(second.body.data.map((event: { type: string }) => event.type)).toEqual(["payment.pending"]);
    expect(second.body.hasMore).toBe(false);
    const stolen = await api.get("/event", { key: other.apiKey, query: { cursor: first.body.nextCursor } });
    expect(stolen.status).toBe(400);
    expect(stolen.body.code).toBe("invalid_cursor");
  });

  it("refuses bad filters with the failing fields", async () => {
    const bad = await api.get("/event", { key: shop.apiKey, query: { type: "payment.", since: "yesterday", limit: "0" } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("validation_failed");
    expect([...new Set(bad.body.errors.map((error: { path: string }) => error.path))].sort()).toEqual(["query.limit", "query.since", "query.type"]);
    const backwards = await api.get("/event", { key: shop.apiKey, query: { since: "2026-02-01T00:00:00Z", until: "2026-01-01T00:00:00Z" } });
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors[0].path).toBe("query.since");
    expect((await api.get("/event", { key: shop.apiKey, query: { type: "payout.*" } })).status).toBe(400);
  });

  it("shows one event with its deliveries; another merchant's event is a 404", async () => {
    const [event] = (await api.get("/event", { key: shop.apiKey, query: { type: "invoice.created" } })).body.data;
    await deliverAll();
    const detail = await api.get(`/event/${event.id}`, { key: shop.apiKey });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id: event.id, type: "invoice.created" });
    expect(detail.body.deliveries).toEqual([expect.objectContaining({ eventId: event.id, status: "delivered", url: receiver.url("/shop") })]);
    expect(detail.body.deliveries[0].endpointId).toMatch(/^we_/);
    expect((await api.get(`/event/${event.id}`, { key: other.apiKey })).status).toBe(404);
    expect((await api.get("/event/evt_nope", { key: shop.apiKey })).status).toBe(404);
  });
});

describe("every delivery (GET webhook/delivery)", () => {
  it("lists all statuses, filtered by status, event type, endpoint, event and time", async () => {
    const merchant = await registerTestMerchant(api, { webhookUrl: receiver.url("/ok") });
    const down = await api.post("/webhook/endpoint", { key: merchant.apiKey, body: { url: receiver.url("/down"), eventTypes: ["payment.failed"] } });
    const since = runtime.now().toISOString();
    await confirm(merchant, "d-1");
    runtime.advanceTime(1_000);
    await confirm(merchant, "d-2", "failed");
    runtime.advanceTime(1_000);
    await confirm(merchant, "d-3", "pending");
    // All attempted once: d-2's delivery to /down fails (a schedule of one attempt), the rest are delivered.
    await deliverAll();
    await confirm(merchant, "d-4", "pending"); // not attempted yet: pending
    const list = async (query: Record<string, string | string[]>) =>
      (await api.get("/webhook/delivery", { key: merchant.apiKey, query: { since, ...query } })).body.data as { status: string; eventType: string; endpointId: string }[];
    const all = await list({});
    expect(all).toHaveLength(5);
    expect(all.map((delivery) => delivery.status).sort()).toEqual(["delivered", "delivered", "delivered", "failed", "pending"]);
    expect((await list({ status: "failed" })).map((delivery) => delivery.endpointId)).toEqual([down.body.endpoint.id]);
    expect(await list({ status: "pending,failed" })).toHaveLength(2);
    expect(await list({ status: ["pending", "failed"] })).toHaveLength(2);
    expect(await list({ eventType: "payment.failed" })).toHaveLength(2);
    expect(await list({ endpointId: down.body.endpoint.id })).toHaveLength(1);
    const [newest] = all;
    expect((await list({ eventId: (newest as unknown as { eventId: string }).eventId })).length).toBe(1);
    expect(await list({ until: since })).toEqual([]);
    const bad = await api.get("/webhook/delivery", { key: merchant.apiKey, query: { status: "lost" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toMatch(/^query\.status/);
    // Another merchant sees none of them.
    expect((await api.get("/webhook/delivery", { key: other.apiKey, query: { endpointId: down.body.endpoint.id } })).body.data).toEqual([]);
  });
});

describe("retention", () => {
  it("prunes events past the retention in batches, with their deliveries, keeping those still being delivered", async () => {
    const merchant = await registerTestMerchant(api, { webhookUrl: receiver.url("/ok") });
    for (let i = 0; i < 5; i++) await confirm(merchant, `old-${i}`);
    await deliverAll();
    const stuck = await api.post("/webhook/endpoint", { key: merchant.apiKey, body: { url: receiver.url("/later"), eventTypes: ["payment.failed"] } });
    await api.put(`/webhook/endpoint/${stuck.body.endpoint.id}`, { key: merchant.apiKey, body: { enabled: false } });
    await api.put(`/webhook/endpoint/${stuck.body.endpoint.id}`, { key: merchant.apiKey, body: { enabled: true } });
    await confirm(merchant, "old-waiting", "failed"); // its delivery to /later stays pending (not attempted)
    const ids = async () => (await api.get("/event", { key: merchant.apiKey, query: { limit: "100" } })).body.data.length;
    expect(await ids()).toBe(6);

    runtime.advanceTime(29 * 24 * 3_600_000);
    expect(await pruneExpiredEvents(runtime.database.db, { now: runtime.now(), retentionDays: 30 })).toBe(0);
    runtime.advanceTime(2 * 24 * 3_600_000);
    // Small batches: two of the five delivered events, then two, then the last; the waiting one stays.
    const batches: number[] = [];
    for (let n = -1; n !== 0; ) batches.push((n = await pruneExpiredEvents(runtime.database.db, { now: runtime.now(), retentionDays: 30, limit: 2 })));
    expect(batches.slice(0, 3)).toEqual([2, 2, expect.any(Number)]);
    expect(await ids()).toBe(1);
    const remaining = (await api.get("/webhook/delivery", { key: merchant.apiKey })).body.data;
    expect(remaining.map((delivery: { status: string }) => delivery.status)).toContain("pending");
  });
});
