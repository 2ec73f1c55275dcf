import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { webhookDeliveries } from "../../src/server/db/schema";
import { answerMetricsScrape } from "../../src/server/http/metrics/endpoint";
import { serveMetrics } from "../../src/server/http/metrics/serve";
import { deliveryDepsFor } from "../../src/server/background/start";
import { deliverDueNow } from "../support/deliver-due-now";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { externalId } from "../support/payments";
import { createTestRuntime, type TestRuntime } from "../support/runtime";
import { startReceiver, type TestReceiver } from "./webhooks/receiver";

const TOKEN = "metrics-token-metrics-token-0123456789";

let runtime: TestRuntime;
let api: TestClient;
let receiver: TestReceiver;
let shop: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime({ env: { METRICS_TOKEN: TOKEN } });
  api = testClient(runtime);
  receiver = await startReceiver();
  shop = await registerTestMerchant(api, { webhookUrl: receiver.url() });
});
afterAll(async () => {
  await receiver.close();
  await runtime.close();
});
beforeEach(async () => {
  await runtime.database.db.delete(webhookDeliveries);
  receiver.respond = (_request, response) => response.writeHead(200).end("ok");
});

const scrape = (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }, on: TestRuntime = runtime) =>
  answerMetricsScrape(on, new Request("http://localhost/api/v1/metrics", { headers }));

async function metrics(): Promise<string> {
  const response = await scrape();
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  return response.text();
}

/** The value of one sample of the scraped text (labels matched exactly, in any order); 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.keys(found).length === Object.keys(labels).length && Object.entries(labels).every(([key, value]) => found[key] === value)) {
      return Number(match[3]);
    }
  }
  return 0;
}

const confirm = (merchant = shop) =>
  api.post("/payment/confirm", { key: merchant.apiKey, body: { externalId: externalId(), amount: "10.00", currency: "EUR" } });

describe("GET /api/v1/metrics: who may scrape", () => {
  it("answers 404 exactly like an unknown endpoint when METRICS_TOKEN is unset", async () => {
    const off = await createTestRuntime();
    try {
      const response = await scrape({ authorization: `Bearer ${TOKEN}` }, off);
      expect(response.status).toBe(404);
      const unknown = await testClient(off).get("/no-such-endpoint");
      const body = (await response.json()) as Record<string, unknown>;
      expect({ ...body, requestId: "x" }).toEqual({ ...unknown.body, requestId: "x" });
    } finally {
      await off.close();
    }
  });

  it.each([
    ["no Authorization header", {}],
    ["a wrong token of the same length", { authorization: `Bearer ${TOKEN.slice(0, -1)}X` }],
    ["a prefix of the token", { authorization: `Bearer ${TOKEN.slice(0, 10)}` }],
    ["the token with more after it", { authorization: `Bearer ${TOKEN}0` }],
    ["the token without the Bearer scheme", { authorization: TOKEN }],
    ["the token as Basic credentials", { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}` }],
  ])("refuses %s with 401 and shows no metric", async (_name, headers: Record<string, string>) => {
    const response = await scrape(headers);
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(response.headers.get("www-authenticate")).toBe("Bearer");
    const text = await response.text();
    expect(text).not.toContain("http_request_duration_seconds");
    expect(text).not.toContain(TOKEN);
  });

  it("leaves no trace when unset, whatever the method; with a token, other methods get 405 and OPTIONS 204", async () => {
    const off = await createTestRuntime();
    try {
      for (const method of ["GET", "HEAD", "POST", "DELETE", "OPTIONS"]) {
        const response = await answerMetricsScrape(off, new Request("http://localhost/api/v1/metrics", { method, headers: { authorization: `Bearer ${TOKEN}` } }));
        expect(response.status, method).toBe(404);
      }
    } finally {
      await off.close();
    }
    const at = (method: string, headers: Record<string, string> = {}) => answerMetricsScrape(runtime, new Request("http://localhost/api/v1/metrics", { method, headers }));
    const post = await at("POST", { authorization: `Bearer ${TOKEN}` });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect((await at("OPTIONS")).status).toBe(204);
    expect((await at("HEAD")).status).toBe(401);
    const head = await at("HEAD", { authorization: `Bearer ${TOKEN}` });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("refuses a merchant's API key: the metrics are the operator's, not a merchant's", async () => {
    const response = await scrape({ authorization: `Bearer ${shop.apiKey}` });
    expect(response.status).toBe(401);
  });
});

describe("what the metrics count", () => {
  it("a confirm counts one request under its route template (never its raw path) with its status and latency", async () => {
    const labels = { method: "POST", route: "/payment/confirm", status: "201" };
    const before = sample(await metrics(), "http_request_duration_seconds_count", labels);
    expect((await confirm()).status).toBe(201);
    const text = await metrics();
    expect(sample(text, "http_request_duration_seconds_count", labels)).toBe(before + 1);
    expect(sample(text, "http_request_duration_seconds_bucket", { ...labels, le: "+Inf" })).toBe(before + 1);
    expect(sample(text, "http_request_duration_seconds_sum", labels)).toBeGreaterThan(0);
  });

  it("a read by id is labelled with the template, so ids add no series", async () => {
    const payment = (await confirm()).body as { id: string };
    await api.get(`/payment/${payment.id}`, { key: shop.apiKey });
    await api.get("/payment/pay_01JUNKJUNKJUNKJUNKJUNKJUNK", { key: shop.apiKey });
    const text = await metrics();
    expect(sample(text, "http_request_duration_seconds_count", { method: "GET", route: "/payment/{id}", status: "200" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "http_request_duration_seconds_count", { method: "GET", route: "/payment/{id}", status: "404" })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(payment.id);
    expect(text).not.toContain("pay_01JUNK");
  });

  it("an unknown path is counted as `unmatched`, not by its path", async () => {
    const before = sample(await metrics(), "http_request_duration_seconds_count", { method: "GET", route: "unmatched", status: "404" });
    await api.get("/definitely/not/here-12345");
    const text = await metrics();
    expect(sample(text, "http_request_duration_seconds_count", { method: "GET", route: "unmatched", status: "404" })).toBe(before + 1);
    expect(text).not.toContain("here-12345");
  });

  it("a delivered attempt and a failed one count by result and error class, with their lag", async () => {
    const deps = deliveryDepsFor(runtime, { random: () => 0.5, schedule: [0, 60_000] });
    const before = await metrics();
    const delivered = sample(before, "webhook_attempts_total", { result: "delivered", error_class: "none" });
    const retried = sample(before, "webhook_attempts_total", { result: "pending", error_class: "http" });
    const firstLag = sample(before, "webhook_delivery_lag_seconds_count", { attempt: "first" });

    expect((await confirm()).status).toBe(201);
    const queued = await metrics();
    expect(sample(queued, "webhook_deliveries_due")).toBe(1);
    expect(sample(queued, "webhook_deliveries_in_flight")).toBe(0);
    expect(await deliverDueNow(deps)).toBe(1);

    receiver.respond = (_request, response) => response.writeHead(503).end("down");
    expect((await confirm()).status).toBe(201);
    expect(await deliverDueNow(deps)).toBe(1);

    const after = await metrics();
    expect(sample(after, "webhook_attempts_total", { result: "delivered", error_class: "none" })).toBe(delivered + 1);
    expect(sample(after, "webhook_attempts_total", { result: "pending", error_class: "http" })).toBe(retried + 1);
    expect(sample(after, "webhook_delivery_lag_seconds_count", { attempt: "first" })).toBe(firstLag + 2);
    // The failed one waits for its retry a minute from now: not due, not in flight.
    expect(sample(after, "webhook_deliveries_due")).toBe(0);
    expect(sample(after, "webhook_deliveries_in_flight")).toBe(0);
    runtime.advanceTime(61_000);
    const due = await metrics();
    expect(sample(due, "webhook_deliveries_due")).toBe(1);
    expect(sample(due, "webhook_oldest_due_age_seconds")).toBeGreaterThan(0);
  });

  it("an invoice created and voided counts its two transitions", async () => {
    const before = await metrics();
    const created = await api.post("/invoice", { key: shop.apiKey, body: { amount: "12.00", currency: "EUR" } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const voided = await api.post(`/invoice/${(created.body as { id: string }).id}/void`, { key: shop.apiKey });
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    const after = await metrics();
    expect(sample(after, "invoice_transitions_total", { to: "open" })).toBe(sample(before, "invoice_transitions_total", { to: "open" }) + 1);
    expect(sample(after, "invoice_transitions_total", { to: "void" })).toBe(sample(before, "invoice_transitions_total", { to: "void" }) + 1);
  });

  it("a request refused with 429 counts under the policy that refused it", async () => {
    const strict = await createTestRuntime({ env: { METRICS_TOKEN: TOKEN, RATE_LIMIT_PER_KEY: "1" } });
    try {
      const strictApi = testClient(strict);
      const spammer = await registerTestMerchant(strictApi);
      const before = sample(await (await scrape(undefined, strict)).text(), "rate_limit_refusals_total", { policy: "api_key" });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await strictApi.get("/payment", { key: spammer.apiKey })).status);
      const refused = statuses.filter((status) => status === 429).length;
      expect(refused).toBeGreaterThan(0);
      expect(sample(await (await scrape(undefined, strict)).text(), "rate_limit_refusals_total", { policy: "api_key" })).toBe(before + refused);
    } finally {
      await strict.close();
    }
  });

  it("reports no pool gauges on the embedded database, and the pool's state on a server", async () => {
    const text = await metrics();
    if (runtime.database.kind === "embedded") {
      expect(text).not.toMatch(/^db_pool_connections\{/m);
    } else {
      expect(sample(text, "db_pool_connections", { state: "max" })).toBeGreaterThan(0);
      expect(sample(text, "db_pool_connections", { state: "in_use" }) + sample(text, "db_pool_connections", { state: "idle" })).toBeGreaterThan(0);
      expect(text).toMatch(/^db_pool_waiting_queries \d+$/m);
    }
  });
});

describe("a worker's METRICS_PORT", () => {
  it("serves the same text at /metrics to the token, and nothing else", async () => {
    const served = await serveMetrics(runtime, 0);
    try {
      const url = `http://127.0.0.1:${served.port}`;
      const scraped = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain("webhook_deliveries_due ");
      expect((await fetch(`${url}/metrics`)).status).toBe(401);
      expect((await fetch(`${url}/metrics`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
      expect((await fetch(`${url}/other`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
      expect((await fetch(`${url}/metrics`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    } finally {
      await served.close();
    }
  });
});
