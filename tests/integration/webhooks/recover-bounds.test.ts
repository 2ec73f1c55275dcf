import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookDeliveries } from "../../../src/server/db/schema";
import { MAX_RECOVERED_EVENTS } from "../../../src/server/services/webhook-endpoints/recover";
import { RECOVER_LIMIT } from "../../../src/server/rate-limit/limits";
import { deliveryDepsFor } from "../../../src/server/background/start";
import { testClient, type TestClient } from "../../support/client";
import { dashboardAs, merchantSession } from "../../support/dashboard";
import { deliverDueNow } from "../../support/deliver-due-now";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { startReceiver, type TestReceiver } from "./receiver";

/*
 * Recover (docs/webhooks.md, "All deliveries and recovering a window") is bounded three ways: it never queues a
 * second delivery of an event the endpoint still has pending, a call covers at most MAX_RECOVERED_EVENTS events
 * (422 recover_window_too_large), and a merchant may call it RECOVER_LIMIT.limit times per window (429).
 */

let runtime: TestRuntime;
let api: TestClient;
let receiver: TestReceiver;

const deliverAll = () => deliverDueNow(deliveryDepsFor(runtime, { schedule: [0] }));
const at = (path: string) => receiver.received.filter((request) => request.path === path);

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await runtime.close();
});

async function endpointWithEvents(merchant: TestMerchant, path: string, events: number) {
  const endpoint = (await api.post("/webhook/endpoint", { key: merchant.apiKey, body: { url: receiver.url(path), eventTypes: ["invoice.created"] } })).body.endpoint;
  const since = runtime.now().toISOString();
  runtime.advanceTime(1_000);
  for (let i = 0; i < events; i++) expect((await api.post("/invoice", { key: merchant.apiKey, body: { amount: "1.00", currency: "EUR" } })).status).toBe(201);
  runtime.advanceTime(1_000);
  return { endpoint: endpoint as { id: string }, since };
}

async function deliveriesOf(endpointId: string) {
  const [row] = await runtime.database.db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
  return Number(row!.n);
}

describe("recover never queues an event twice for one endpoint", () => {
  it("recovers of a window whose events are still pending add no delivery; each event arrives once", async () => {
    const merchant = await registerTestMerchant(api);
    const { endpoint, since } = await endpointWithEvents(merchant, "/pending-twice", 3);
    expect(await deliveriesOf(endpoint.id)).toBe(3);
    const dashboard = dashboardAs(runtime, merchantSession(merchant));
    for (let call = 0; call < RECOVER_LIMIT.limit / 2; call++) {
      expect((await api.post(`/webhook/endpoint/${endpoint.id}/recover`, { key: merchant.apiKey, body: { since } })).body).toEqual({ count: 0 });
      expect(await dashboard.webhookEndpoints.recover({ id: endpoint.id, since })).toEqual({ count: 0 });
    }
    expect(await deliveriesOf(endpoint.id)).toBe(3);
    await deliverAll();
    expect([...receiver.countById().values()].filter((n) => n > 1)).toEqual([]);
    expect(at("/pending-twice")).toHaveLength(3);
  });

  it("queues the events whose delivery has ended (delivered or failed) and skips the one still pending", async () => {
    const merchant = await registerTestMerchant(api);
    const { endpoint, since } = await endpointWithEvents(merchant, "/partly", 2);
    await deliverAll();
    // One more event, left pending: the endpoint will get it anyway.
    expect((await api.post("/invoice", { key: merchant.apiKey, body: { amount: "1.00", currency: "EUR" } })).status).toBe(201);
    const recovered = await api.post(`/webhook/endpoint/${endpoint.id}/recover`, { key: merchant.apiKey, body: { since } });
    expect(recovered.body).toEqual({ count: 2 });
    await deliverAll();
    expect(at("/partly")).toHaveLength(5);
    const pendingOrDelivering = await runtime.database.db
      .select({ n: count() })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.endpointId, endpoint.id), sql`${webhookDeliveries.status} in ('pending', 'delivering')`));
    expect(Number(pendingOrDelivering[0]!.n)).toBe(0);
  });
});

describe("recover is bounded in size and rate", () => {
  it(`a window of more than ${MAX_RECOVERED_EVENTS} events answers 422 recover_window_too_large, naming the limit, and queues nothing`, async () => {
    const merchant = await registerTestMerchant(api);
    const { endpoint, since } = await endpointWithEvents(merchant, "/too-many", 0);
    // One statement seeds the window: MAX_RECOVERED_EVENTS + 1 invoice.created events of this merchant.
    const at = runtime.now().toISOString();
    await runtime.database.db.execute(sql`
      insert into events (id, merchant_id, livemode, type, data, created_at)
      select 'evt_seed' || lpad(n::text, 21, '0'), ${merchant.merchant.id}, true, 'invoice.created', '{}'::jsonb, ${at}::timestamptz
      from generate_series(1, ${MAX_RECOVERED_EVENTS + 1}::int) as n`);
    runtime.advanceTime(1_000);
    const refused = await api.post(`/webhook/endpoint/${endpoint.id}/recover`, { key: merchant.apiKey, body: { since } });
    expect(refused.status).toBe(422);
    expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ code: "recover_window_too_large", detail: expect.stringContaining("10,000") });
    expect(refused.body.errors).toEqual([expect.objectContaining({ path: "body.since" })]);
    expect(await deliveriesOf(endpoint.id)).toBe(0);
    // The window in parts works.
    const until = new Date(Date.parse(at) + 1).toISOString();
    expect((await api.post(`/webhook/endpoint/${endpoint.id}/recover`, { key: merchant.apiKey, body: { since: until } })).body).toEqual({ count: 0 });
  });

  it(`a merchant may recover ${RECOVER_LIMIT.limit} times per ${RECOVER_LIMIT.windowSeconds} s, REST and dashboard together; then 429 naming the limit`, async () => {
    const merchant = await registerTestMerchant(api);
    const { endpoint, since } = await endpointWithEvents(merchant, "/rate", 0);
    const dashboard = dashboardAs(runtime, merchantSession(merchant));
    for (let call = 0; call < RECOVER_LIMIT.limit; call++) {
      if (call % 2 === 0) expect((await api.post(`/webhook/endpoint/${endpoint.id}/recover`, { key: merchant.apiKey, body: { since } })).status).toBe(202);
      else expect(await dashboard.webhookEndpoints.recover({ id: endpoint.id, since })).toEqual({ count: 0 });
    }
    const refused = await api.post(`/webhook/endpoint/${endpoint.id}/recover`, { key: merchant.apiKey, body: { since } });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: "rate_limited", detail: expect.stringContaining(`${RECOVER_LIMIT.limit} recovers`) });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("ratelimit-policy")).toContain(`"${RECOVER_LIMIT.name}";q=${RECOVER_LIMIT.limit};w=${RECOVER_LIMIT.windowSeconds}`);
    await expect(dashboard.webhookEndpoints.recover({ id: endpoint.id, since })).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
    // Another merchant's budget is its own.
    const other = await registerTestMerchant(api);
    const theirs = await endpointWithEvents(other, "/rate-other", 0);
    expect((await api.post(`/webhook/endpoint/${theirs.endpoint.id}/recover`, { key: other.apiKey, body: { since: theirs.since } })).status).toBe(202);
  });
});
