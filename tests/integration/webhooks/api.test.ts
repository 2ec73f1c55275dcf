import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { webhookDeliveries } from "../../../src/server/db/schema";
import { createApiKey } from "../../../src/server/services/api-keys/create";
import { emitEvent } from "../../../src/server/services/events/emit";
import { rotateWebhookSecret } from "../../../src/server/services/webhooks/rotate-secret";
import { signatureHeaders, generateWebhookSecret } from "../../../src/server/webhooks/signing";
import { deliveryDepsFor } from "../../../src/server/background/start";
import { deliverDueNow } from "../../support/deliver-due-now";
import { testClient, type TestClient } from "../../support/client";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { merchantContext } from "./context";
import { startReceiver, type TestReceiver } from "./receiver";

let runtime: TestRuntime;
let api: TestClient;
let receiver: TestReceiver;
let shop: TestMerchant;
let other: TestMerchant;

const deliverAll = () => deliverDueNow(deliveryDepsFor(runtime, { schedule: [0] }));

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  receiver = await startReceiver();
  shop = await registerTestMerchant(api, { webhookUrl: receiver.url("/shop") });
  other = await registerTestMerchant(api, { webhookUrl: receiver.url("/other") });
});
afterAll(async () => {
  await receiver.close();
  await runtime.close();
});
beforeEach(() => {
  receiver.respond = (_request, response) => response.writeHead(200).end("ok");
});

/** Emits events for a merchant and lets every attempt fail once (schedule of one attempt): they end failed. */
async function failedDeliveries(merchant: TestMerchant, types: ("payment.confirmed" | "payment.failed")[]) {
  receiver.respond = (_request, response) => response.writeHead(500).end("down");
  const ids: string[] = [];
  for (const type of types) {
    const { deliveryId } = await emitEvent({ ctx: merchantContext(runtime, merchant.merchant.id), input: { type, data: { type } } });
    ids.push(deliveryId!);
    runtime.advanceTime(1_000); // distinct creation times, so "newest first" is observable
  }
  await deliverAll();
  receiver.respond = (_request, response) => response.writeHead(200).end("ok");
  return ids;
}

describe("webhook endpoints need an API key", () => {
  it.each([
    ["GET", "/webhook/failed"],
    ["POST", "/webhook/failed/retry"],
    ["GET", "/webhook/whd_01jd0000000000000000000000"],
    ["POST", "/webhook/whd_01jd0000000000000000000000/retry"],
    ["POST", "/webhook/test"],
    ["POST", "/webhook/verify"],
  ])("%s %s without a key → 401", async (method, path) => {
    const response = await api.request(method, path, { body: method === "POST" ? {} : undefined });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("unauthenticated");
  });
});

describe("GET /webhook/failed and GET /webhook/{id}", () => {
  let ids: string[];
  beforeAll(async () => {
    ids = await failedDeliveries(shop, ["payment.confirmed", "payment.failed", "payment.confirmed", "payment.failed", "payment.confirmed"]);
    await failedDeliveries(other, ["payment.confirmed"]);
  });

  it("lists the merchant's failed deliveries newest first, with attempt count, last status and the event", async () => {
    const response = await api.get("/webhook/failed", { key: shop.apiKey });
    expect(response.status).toBe(200);
    expect(response.body.data.map((delivery: { id: string }) => delivery.id)).toEqual([...ids].reverse());
    expect(response.body.data[0]).toMatchObject({
      status: "failed",
      eventType: "payment.confirmed",
      attemptCount: 1,
      lastStatusCode: 500,
      lastError: expect.stringContaining("500"),
      nextAttemptAt: null,
      url: receiver.url("/shop"),
      event: { type: "payment.confirmed", data: { type: "payment.confirmed" } },
    });
    expect(response.body).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it("pages with a cursor, without gaps or repeats", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const response = await api.get("/webhook/failed", { key: shop.apiKey, query: { limit: 2, cursor } });
      expect(response.status).toBe(200);
      seen.push(...response.body.data.map((delivery: { id: string }) => delivery.id));
      if (!response.body.hasMore) break;
      cursor = response.body.nextCursor;
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it("filters by event type and by time", async () => {
    const failedOnly = await api.get("/webhook/failed", { key: shop.apiKey, query: { eventType: "payment.failed" } });
    expect(failedOnly.body.data.map((delivery: { id: string }) => delivery.id)).toEqual([ids[3], ids[1]]);

    // Several types: repeated (as OpenAPI describes the parameter) or comma-separated.
    for (const path of ["/webhook/failed?eventType=payment.failed&eventType=payment.confirmed", "/webhook/failed?eventType=payment.failed,payment.confirmed"]) {
      expect((await api.get(path, { key: shop.apiKey })).body.data).toHaveLength(ids.length);
    }

    const all = (await api.get("/webhook/failed", { key: shop.apiKey })).body.data as { id: string; createdAt: string }[];
    const third = all.find((delivery) => delivery.id === ids[2])!;
    const since = await api.get("/webhook/failed", { key: shop.apiKey, query: { since: third.createdAt } });
    expect(since.body.data.map((delivery: { id: string }) => delivery.id)).toEqual([ids[4], ids[3], ids[2]]);
    const until = await api.get("/webhook/failed", { key: shop.apiKey, query: { until: third.createdAt } });
    expect(until.body.data.map((delivery: { id: string }) => delivery.id)).toEqual([ids[1], ids[0]]);
  });

  it.each([
    [{ limit: 0 }, "query.limit"],
    [{ limit: 101 }, "query.limit"],
    [{ eventType: "payment.unknown" }, "query.eventType"],
    [{ since: "yesterday" }, "query.since"],
    [{ since: "0000-01-01T00:00:00Z" }, "query.since"],
    [{ until: "9999-12-31T23:59:59Z" }, "query.until"],
    [{ since: "2026-01-02T00:00:00Z", until: "2026-01-01T00:00:00Z" }, "query.since"],
    [{ colour: "blue" }, "query.colour"],
  ])("refuses bad query %o with 400 validation_failed", async (query, path) => {
    const response = await api.get("/webhook/failed", { key: shop.apiKey, query });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("validation_failed");
    expect(response.body.errors[0].path).toContain(path);
  });

  it("refuses a cursor it did not make with 400 invalid_cursor", async () => {
    for (const cursor of ["garbage!", Buffer.from("pay_123").toString("base64url")]) {
      const response = await api.get("/webhook/failed", { key: shop.apiKey, query: { cursor } });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("invalid_cursor");
    }
  });

  it("shows one delivery with its attempts and payload", async () => {
    const response = await api.get(`/webhook/${ids[0]}`, { key: shop.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: ids[0],
      status: "failed",
      payload: { type: "payment.confirmed", data: { type: "payment.confirmed" } },
      attempts: [{ trigger: "scheduled", statusCode: 500, errorClass: "http", responseBody: "down", latencyMs: expect.any(Number) }],
    });
    expect(response.body.attempts[0].responseHeaders).toHaveProperty("date");
  });

  it("never shows another merchant's deliveries: not listed, and 404 by id", async () => {
    const theirs = (await api.get("/webhook/failed", { key: other.apiKey })).body.data as { id: string }[];
    expect(theirs).toHaveLength(1);
    const mine = (await api.get("/webhook/failed", { key: shop.apiKey })).body.data as { id: string }[];
    expect(mine.map((delivery) => delivery.id)).not.toContain(theirs[0]!.id);

    const byId = await api.get(`/webhook/${theirs[0]!.id}`, { key: shop.apiKey });
    expect(byId.status).toBe(404);
    expect(byId.body.code).toBe("not_found");
    const retry = await api.post(`/webhook/${theirs[0]!.id}/retry`, { key: shop.apiKey });
    expect(retry.status).toBe(404);
    // And a cursor issued on their list is refused on mine (cursors are signed for one merchant's list).
    await failedDeliveries(other, ["payment.failed"]);
    const theirPage = await api.get("/webhook/failed", { key: other.apiKey, query: { limit: 1 } });
    expect(theirPage.body.hasMore).toBe(true);
    const page = await api.get("/webhook/failed", { key: shop.apiKey, query: { cursor: theirPage.body.nextCursor } });
    expect(page.status).toBe(400);
    expect(page.body.code).toBe("invalid_cursor");
  });

  it("answers 404 for ids that are not delivery ids", async () => {
    for (const id of ["nope", "pay_01jd0000000000000000000000", "whd_01jd0000000000000000000000", "%E0%A4%A"]) {
      const response = await api.get(`/webhook/${id}`, { key: shop.apiKey });
      expect(response.status).toBe(404);
    }
  });
});

describe("POST /webhook/{id}/retry", () => {
  it("re-queues a failed delivery now (202), and it is delivered as a manual attempt", async () => {
    const [id] = await failedDeliveries(shop, ["payment.confirmed"]);
    const response = await api.post(`/webhook/${id}/retry`, { key: shop.apiKey });
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ id, status: "pending", attemptCount: 1 });
    expect(new Date(response.body.nextAttemptAt).getTime()).toBeLessThanOrEqual(runtime.now().getTime());

    await deliverAll();
    const detail = await api.get(`/webhook/${id}`, { key: shop.apiKey });
    expect(detail.body).toMatchObject({ status: "delivered", attemptCount: 2 });
    expect(detail.body.attempts.map((attempt: { trigger: string }) => attempt.trigger)).toEqual(["scheduled", "manual"]);
  });

  it("answers 409 delivery_not_failed for a delivery that is not failed", async () => {
    const { deliveryId } = await emitEvent({ ctx: merchantContext(runtime, shop.merchant.id), input: { type: "payment.confirmed", data: {} } });
    const pending = await api.post(`/webhook/${deliveryId}/retry`, { key: shop.apiKey });
    expect(pending.status).toBe(409);
    expect(pending.body.code).toBe("delivery_not_failed");
    await deliverAll();
    const delivered = await api.post(`/webhook/${deliveryId}/retry`, { key: shop.apiKey });
    expect(delivered.status).toBe(409);
  });

  it("makes a single attempt: a retry that fails again leaves the delivery failed", async () => {
    const [id] = await failedDeliveries(shop, ["payment.failed"]);
    await api.post(`/webhook/${id}/retry`, { key: shop.apiKey });
    receiver.respond = (_request, response) => response.writeHead(503).end();
    await deliverDueNow(deliveryDepsFor(runtime)); // the full test schedule: still only one attempt
    const detail = await api.get(`/webhook/${id}`, { key: shop.apiKey });
    expect(detail.body).toMatchObject({ status: "failed", attemptCount: 2, lastStatusCode: 503 });
  });
});

describe("POST /webhook/failed/retry", () => {
  it("counts with dryRun, then re-queues exactly the matching failed deliveries of this merchant", async () => {
    const merchant = await registerTestMerchant(api, { webhookUrl: receiver.url("/bulk") });
    const before = runtime.now().toISOString();
    const ids = await failedDeliveries(merchant, ["payment.confirmed", "payment.failed", "payment.failed"]);
    await failedDeliveries(other, ["payment.failed"]);
    const othersFailed = async () => (await api.get("/webhook/failed", { key: other.apiKey, query: { eventType: "payment.failed" } })).body.data.length;
    const othersBefore = await othersFailed();

    const dry = await api.post("/webhook/failed/retry", { key: merchant.apiKey, body: { dryRun: true, eventTypes: ["payment.failed"] } });
    expect(dry.status).toBe(200);
    expect(dry.body).toEqual({ count: 2 });
    expect((await api.get("/webhook/failed", { key: merchant.apiKey })).body.data).toHaveLength(3);

    const none = await api.post("/webhook/failed/retry", { key: merchant.apiKey, body: { dryRun: true, until: before } });
    expect(none.body).toEqual({ count: 0 });

    const real = await api.post("/webhook/failed/retry", { key: merchant.apiKey, body: { eventTypes: ["payment.failed"], since: before } });
    expect(real.status).toBe(202);
    expect(real.body).toEqual({ count: 2 });
    await deliverAll();
    const left = (await api.get("/webhook/failed", { key: merchant.apiKey })).body.data as { id: string }[];
    expect(left.map((delivery) => delivery.id)).toEqual([ids[0]]);
    // The other merchant's failed delivery was not touched.
    expect(await othersFailed()).toBe(othersBefore);
  });

  it("refuses `since` after `until` with 400 on body.since and re-queues nothing; bounds compare as instants", async () => {
    const merchant = await registerTestMerchant(api, { webhookUrl: receiver.url("/bulk-range") });
    await failedDeliveries(merchant, ["payment.failed"]);
    for (const dryRun of [true, false]) {
      const response = await api.post("/webhook/failed/retry", {
        key: merchant.apiKey,
        body: { dryRun, since: "2026-01-02T00:00:00Z", until: "2026-01-01T00:00:00Z" },
      });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("validation_failed");
      expect(response.body.errors).toEqual([{ path: "body.since", message: "must not be after `until`" }]);
    }
    expect((await api.get("/webhook/failed", { key: merchant.apiKey })).body.data).toHaveLength(1);
    // 10:00 at +02:00 is 08:00 UTC, before 09:00 UTC: a valid range, though its text sorts the other way.
    const offsets = await api.post("/webhook/failed/retry", {
      key: merchant.apiKey,
      body: { dryRun: true, since: "2026-01-01T10:00:00+02:00", until: "2026-01-01T09:00:00Z" },
    });
    expect(offsets.status).toBe(200);
  });

  it("refuses unknown fields and event types", async () => {
    const response = await api.post("/webhook/failed/retry", { key: shop.apiKey, body: { eventTypes: ["nope"], everything: true } });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: { path: string }) => error.path)).toEqual(expect.arrayContaining(["body.eventTypes.0"]));
  });
});

describe("POST /webhook/test", () => {
  it("with dryRun checks the configured URL and sends nothing", async () => {
    const count = receiver.received.length;
    const response = await api.post("/webhook/test", { key: shop.apiKey, body: { dryRun: true } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ url: receiver.url("/shop"), usable: true, reason: null, delivered: false, deliveryId: null });
    expect(receiver.received.length).toBe(count);
  });

  it.each([
    ["ftp://hooks.example.com/x", "unsupported_scheme"],
    ["https://user:secret@hooks.example.com/x", "credentials_in_url"],
    ["not a url", "invalid_url"],
  ])("says why %s is unusable", async (url, reason) => {
    const response = await api.post("/webhook/test", { key: shop.apiKey, body: { url } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ usable: false, reason, delivered: false, deliveryId: null, message: expect.any(String) });
  });

  it("sends a signed webhook.test now, reports the answer and records it as a test delivery", async () => {
    receiver.respond = (_request, response) => response.writeHead(200, { "content-type": "text/plain" }).end("pong");
    const response = await api.post("/webhook/test", { key: shop.apiKey, body: {} });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ usable: true, delivered: true, statusCode: 200, responseSnippet: "pong", latencyMs: expect.any(Number) });
    const request = receiver.received.at(-1)!;
    expect(new Webhook(shop.webhookSecret).verify(request.body, request.headers)).toMatchObject({ type: "webhook.test" });

    const detail = await api.get(`/webhook/${response.body.deliveryId}`, { key: shop.apiKey });
    expect(detail.body).toMatchObject({ eventType: "webhook.test", status: "delivered", attempts: [{ trigger: "test", statusCode: 200 }] });
  });

  it("reports a failing endpoint, and does not retry a test on a schedule", async () => {
    receiver.respond = (_request, response) => response.writeHead(502).end("bad gateway");
    const response = await api.post("/webhook/test", { key: shop.apiKey, body: { url: receiver.url("/elsewhere") } });
    expect(response.body).toMatchObject({ usable: true, delivered: false, statusCode: 502, errorClass: "http", responseSnippet: "bad gateway" });
    expect(receiver.received.at(-1)!.path).toBe("/elsewhere");
    const [row] = await runtime.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, response.body.deliveryId));
    expect(row).toMatchObject({ status: "failed", nextAttemptAt: null });
  });

  it("says so when there is no URL to test", async () => {
    const bare = await registerTestMerchant(api);
    const response = await api.post("/webhook/test", { key: bare.apiKey, body: {} });
    expect(response.body).toMatchObject({ url: null, usable: false, reason: "no_webhook_url" });
  });
});

describe("POST /webhook/test with private targets refused (production setting)", () => {
  let strict: TestRuntime;
  let strictApi: TestClient;
  let merchant: TestMerchant;
  beforeAll(async () => {
    strict = await createTestRuntime({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "false" } });
    strictApi = testClient(strict);
    merchant = await registerTestMerchant(strictApi);
  });
  afterAll(() => strict.close());

  it.each([
    ["https://127.0.0.1/hooks", "blocked_address"],
    ["https://169.254.169.254/latest/meta-data/", "blocked_address"],
    ["https://[::ffff:10.0.0.1]/hooks", "blocked_address"],
    ["https://localhost/hooks", "blocked_address"],
    ["http://hooks.example.com/x", "insecure_scheme"],
  ])("refuses %s (%s) and sends nothing", async (url, reason) => {
    const count = receiver.received.length;
    const response = await strictApi.post("/webhook/test", { key: merchant.apiKey, body: { url } });
    expect(response.body).toMatchObject({ usable: false, reason, delivered: false });
    expect(receiver.received.length).toBe(count);
  });
});

describe("POST /webhook/verify", () => {
  const body = '{"type":"payment.confirmed","timestamp":"2026-11-22T12:00:00.000Z","data":{"id":"pay_1"}}';
  const nowSeconds = () => Math.floor(runtime.now().getTime() / 1000);
  const signed = (secret: string, timestamp = nowSeconds()) =>
    signatureHeaders({ id: "evt_01jd0000000000000000000000", timestamp, body, secrets: [secret] });

  it("accepts what we signed with the merchant's secret", async () => {
    const timestamp = nowSeconds();
    const response = await api.post("/webhook/verify", { key: shop.apiKey, body: { payload: body, headers: signed(shop.webhookSecret, timestamp) } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      valid: true,
      reason: null,
      eventId: "evt_01jd0000000000000000000000",
      timestamp: new Date(timestamp * 1000).toISOString(),
    });
  });

  it("reads header names case-insensitively", async () => {
    const headers = Object.fromEntries(Object.entries(signed(shop.webhookSecret)).map(([name, value]) => [name.toUpperCase(), value]));
    const response = await api.post("/webhook/verify", { key: shop.apiKey, body: { payload: body, headers } });
    expect(response.body.valid).toBe(true);
  });

  it.each([
    ["a changed body", () => ({ payload: body.replace("pay_1", "pay_2"), headers: signed(shop.webhookSecret) }), "signature_mismatch"],
    ["another merchant's secret", () => ({ payload: body, headers: signed(other.webhookSecret) }), "signature_mismatch"],
    ["an unknown secret", () => ({ payload: body, headers: signed(generateWebhookSecret()) }), "signature_mismatch"],
    ["a timestamp 10 minutes old", () => ({ payload: body, headers: signed(shop.webhookSecret, nowSeconds() - 600) }), "timestamp_outside_tolerance"],
    ["no signature header", () => ({ payload: body, headers: { "webhook-id": "evt_1", "webhook-timestamp": String(nowSeconds()) } }), "malformed_headers"],
    ["no headers at all", () => ({ payload: body, headers: {} }), "malformed_headers"],
  ])("refuses %s", async (_name, input, reason) => {
    const response = await api.post("/webhook/verify", { key: shop.apiKey, body: input() });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ valid: false, reason });
  });

  it("answers 400 when the body is not of the documented shape", async () => {
    for (const bad of [{}, { payload: 42, headers: {} }, { payload: body }, { payload: body, headers: { "webhook-id": 1 } }]) {
      const response = await api.post("/webhook/verify", { key: shop.apiKey, body: bad });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("validation_failed");
    }
  });

  it("accepts the previous secret during a rotation, and the new one", async () => {
    const merchant = await registerTestMerchant(api);
    const { webhookSecret } = await rotateWebhookSecret({ ctx: merchantContext(runtime, merchant.merchant.id) });
    for (const secret of [merchant.webhookSecret, webhookSecret]) {
      const response = await api.post("/webhook/verify", { key: merchant.apiKey, body: { payload: body, headers: signed(secret) } });
      expect(response.body.valid).toBe(true);
    }
  });

  it("limits verification to 60 checks a minute per merchant, whichever of its keys asks (signature probing), others unaffected", async () => {
    const prober = await registerTestMerchant(api);
    const { key: secondKey } = await createApiKey({ ctx: merchantContext(runtime, prober.merchant.id), input: { name: "second" } });
    const input = { payload: body, headers: signed(generateWebhookSecret()) };
    const answers = await Promise.all(
      Array.from({ length: 61 }, (_, i) => api.post("/webhook/verify", { key: i % 2 === 0 ? prober.apiKey : secondKey, body: input })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(60);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(refused.body.code).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another merchant still verifies.
    expect((await api.post("/webhook/verify", { key: other.apiKey, body: input })).status).toBe(200);
  });

  it("never writes a signing secret to the logs", () => {
    const logs = runtime.logs.join("\n");
    for (const secret of [shop.webhookSecret, other.webhookSecret]) expect(logs).not.toContain(secret.slice("whsec_".length));
  });
});
