import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { webhookDeliveries } from "../../../src/server/db/schema";
import { deliveryDepsFor } from "../../../src/server/background/start";
import { testClient, type TestClient } from "../../support/client";
import { deliverDueNow } from "../../support/deliver-due-now";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { startReceiver, type TestReceiver } from "./receiver";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let runtime: TestRuntime;
let api: TestClient;
let receiver: TestReceiver;
let other: TestMerchant;
/** Paths that answer 500, and 410. */
const down = new Set<string>();
const gone = new Set<string>();

// Hourly retries for a week: an endpoint that fails everything keeps being attempted (health is judged on attempts).
const HOURLY_FOR_A_WEEK = Array.from({ length: 7 * 24 }, (_, i) => (i === 0 ? 0 : HOUR));
const deliverAll = () => deliverDueNow(deliveryDepsFor(runtime, { schedule: HOURLY_FOR_A_WEEK, disableAfterMs: 5 * DAY }));
const confirm = (merchant: TestMerchant, externalId: string, status = "confirmed") =>
  api.post("/payment/confirm", { key: merchant.apiKey, body: { externalId, amount: "1.00", currency: "EUR", status } });
const at = (path: string) => receiver.received.filter((request) => request.path === path);
const endpointOf = async (merchant: TestMerchant, id: string) => (await api.get(`/webhook/endpoint/${id}`, { key: merchant.apiKey })).body;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  receiver = await startReceiver();
  other = await registerTestMerchant(api);
});
afterAll(async () => {
  await receiver.close();
  await runtime.close();
});
beforeEach(() => {
  down.clear();
  gone.clear();
  receiver.respond = (request, response) => response.writeHead(gone.has(request.path) ? 410 : down.has(request.path) ? 500 : 200).end();
});

describe("recover (POST webhook/endpoint/{id}/recover)", () => {
  it("sends the window's subscribed events again as new deliveries with the same webhook-id", async () => {
    const merchant = await registerTestMerchant(api);
    const endpoint = (await api.post("/webhook/endpoint", { key: merchant.apiKey, body: { url: receiver.url("/recover"), eventTypes: ["payment.confirmed", "payment.failed"] } })).body.endpoint;
    const before = runtime.now().toISOString();
    runtime.advanceTime(1_000);
    const since = runtime.now().toISOString();
    await confirm(merchant, "r-1");
    await confirm(merchant, "r-2", "pending"); // not subscribed
    await confirm(merchant, "r-3", "failed");
    await api.post("/webhook/test", { key: merchant.apiKey, body: { endpointId: endpoint.id } }); // test sends are not recovered
    runtime.advanceTime(1_000);
    const until = runtime.now().toISOString();
    runtime.advanceTime(1_000);
    await confirm(merchant, "r-4"); // after the window
    await deliverAll();
    expect(at("/recover")).toHaveLength(4); // r-1, r-3, the test send, r-4
    const idOf = (externalId: string) =>
      at("/recover").find((request) => (JSON.parse(request.body) as { data: { externalId?: string } }).data.externalId === externalId)!.headers["webhook-id"];

    const recovered = await api.post(`/webhook/endpoint/${endpoint.id}/recover`, { key: merchant.apiKey, body: { since, until } });
    expect(recovered.status).toBe(202);
    expect(recovered.body).toEqual({ count: 2 });
    await deliverAll();
    const again = at("/recover").slice(4).map((request) => request.headers["webhook-id"]);
    expect(again.sort()).toEqual([idOf("r-1"), idOf("r-3")].sort());
    const deliveriesOfR1 = await runtime.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, idOf("r-1")!));
    expect(deliveriesOfR1.map((delivery) => delivery.status)).toEqual(["delivered", "delivered"]);

    // Without `until`: up to now. An empty window: 0. Backwards: 400 on since.
    expect((await api.post(`/webhook/endpoint/${endpoint.id}/recover`, { key: merchant.apiKey, body: { since } })).body).toEqual({ count: 3 });
    expect((await api.post(`/webhook/endpoint/${endpoint.id}/recover`, { key: merchant.apiKey, body: { since: before, until: before } })).body).toEqual({ count: 0 });
    const backwards = await api.post(`/webhook/endpoint/${endpoint.id}/recover`, { key: merchant.apiKey, body: { since: until, until: since } });
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors[0].path).toBe("body.since");
    const missing = await api.post(`/webhook/endpoint/${endpoint.id}/recover`, { key: merchant.apiKey, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].path).toBe("body.since");
    expect((await api.post(`/webhook/endpoint/${endpoint.id}/recover`, { key: other.apiKey, body: { since } })).status).toBe(404);
  });

  it("answers 409 webhook_url_missing for a default endpoint without a URL, queuing nothing", async () => {
    const merchant = await registerTestMerchant(api);
    const [endpoint] = (await api.get("/webhook/endpoint", { key: merchant.apiKey })).body.data;
    await confirm(merchant, "nowhere");
    const refused = await api.post(`/webhook/endpoint/${endpoint.id}/recover`, { key: merchant.apiKey, body: { since: "2020-01-01T00:00:00Z" } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("webhook_url_missing");
    expect(await runtime.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.merchantId, merchant.merchant.id))).toEqual([]);
  });
});

describe("endpoint health", () => {
  it("an endpoint answering 410 Gone is disabled at once, its other endpoints are told, and its deliveries wait", async () => {
    const merchant = await registerTestMerchant(api, { webhookUrl: receiver.url("/health-main") });
    const doomed = (await api.post("/webhook/endpoint", { key: merchant.apiKey, body: { url: receiver.url("/health-gone") } })).body.endpoint;
    gone.add("/health-gone");
    await confirm(merchant, "g-1");
    await deliverAll();
    expect(await endpointOf(merchant, doomed.id)).toMatchObject({ status: "disabled", disabledReason: "gone" });
    const told = at("/health-main").map((request) => JSON.parse(request.body) as { type: string; data: { endpoint: { id: string }; reason: string } });
    expect(told.filter((body) => body.type === "webhook.endpoint_disabled")).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ reason: "gone", endpoint: expect.objectContaining({ id: doomed.id, status: "disabled" }) }) }),
    ]);
    // No delivery of its own disablement goes to it; new events skip it.
    await confirm(merchant, "g-2");
    await deliverAll();
    expect(at("/health-gone")).toHaveLength(1);
    // Re-enabled (fixed): the events it missed are not queued for it, but recover sends them.
    gone.delete("/health-gone");
    const enabled = await api.put(`/webhook/endpoint/${doomed.id}`, { key: merchant.apiKey, body: { enabled: true } });
    expect(enabled.body).toMatchObject({ status: "enabled", disabledReason: null });
  });

  it("an endpoint failing every attempt for WEBHOOK_DISABLE_AFTER is disabled (failing); one success resets the clock", async () => {
    const merchant = await registerTestMerchant(api, { webhookUrl: receiver.url("/watch") });
    const flaky = (await api.post("/webhook/endpoint", { key: merchant.apiKey, body: { url: receiver.url("/flaky"), eventTypes: ["payment.confirmed"] } })).body.endpoint;
    down.add("/flaky");
    await confirm(merchant, "f-1");
    await deliverAll();
    // Failing for 4 days: still enabled.
    for (let step = 0; step < 4 * 8; step++) {
      runtime.advanceTime(3 * HOUR);
      await deliverAll();
    }
    expect(await endpointOf(merchant, flaky.id)).toMatchObject({ status: "enabled" });
    // One success ends the run of failures: the clock starts again.
    down.delete("/flaky");
    await confirm(merchant, "f-2");
    await deliverAll();
    down.add("/flaky");
    await confirm(merchant, "f-3");
    await deliverAll();
    for (let step = 0; step < 4 * 8; step++) {
      runtime.advanceTime(3 * HOUR);
      await deliverAll();
    }
    expect(await endpointOf(merchant, flaky.id)).toMatchObject({ status: "enabled" });
    // Past 5 days of nothing but failures: disabled, and the deliveries still due wait (not failed).
    for (let step = 0; step < 9; step++) {
      runtime.advanceTime(3 * HOUR);
      await deliverAll();
    }
    expect(await endpointOf(merchant, flaky.id)).toMatchObject({ status: "disabled", disabledReason: "failing" });
    const watch = at("/watch").map((request) => JSON.parse(request.body) as { type: string; data: { reason?: string } });
    expect(watch.filter((body) => body.type === "webhook.endpoint_disabled").map((body) => body.data.reason)).toEqual(["failing"]);
    const waiting = await api.get("/webhook/delivery", { key: merchant.apiKey, query: { endpointId: flaky.id, status: "pending" } });
    expect(waiting.body.data.length).toBeGreaterThan(0);
    expect(waiting.body.data.every((delivery: { nextAttemptAt: string | null }) => delivery.nextAttemptAt === null)).toBe(true);
    const attemptsBefore = at("/flaky").length;
    runtime.advanceTime(2 * HOUR);
    await deliverAll();
    expect(at("/flaky").length).toBe(attemptsBefore);

    // Re-enabled once fixed: what was pending is sent at once.
    down.delete("/flaky");
    await api.put(`/webhook/endpoint/${flaky.id}`, { key: merchant.apiKey, body: { enabled: true } });
    await deliverAll();
    expect(at("/flaky").length).toBe(attemptsBefore + waiting.body.data.length);
    const after = await api.get("/webhook/delivery", { key: merchant.apiKey, query: { endpointId: flaky.id, status: "pending" } });
    expect(after.body.data).toEqual([]);
  });

  it("a manual retry of a disabled endpoint's delivery waits for the endpoint", async () => {
    const merchant = await registerTestMerchant(api);
    const endpoint = (await api.post("/webhook/endpoint", { key: merchant.apiKey, body: { url: receiver.url("/retry-wait") } })).body.endpoint;
    down.add("/retry-wait");
    await confirm(merchant, "w-1");
    await deliverDueNow(deliveryDepsFor(runtime, { schedule: [0] }));
    const [failed] = (await api.get("/webhook/failed", { key: merchant.apiKey })).body.data;
    await api.put(`/webhook/endpoint/${endpoint.id}`, { key: merchant.apiKey, body: { enabled: false } });
    down.delete("/retry-wait");
    const retried = await api.post(`/webhook/${failed.id}/retry`, { key: merchant.apiKey });
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ status: "pending", nextAttemptAt: null });
    await deliverAll();
    expect(at("/retry-wait")).toHaveLength(1);
    await api.put(`/webhook/endpoint/${endpoint.id}`, { key: merchant.apiKey, body: { enabled: true } });
    await deliverAll();
    expect(at("/retry-wait")).toHaveLength(2);
    expect((await api.get(`/webhook/${failed.id}`, { key: merchant.apiKey })).body.status).toBe("delivered");
  });
});
