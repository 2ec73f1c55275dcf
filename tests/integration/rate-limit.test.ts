import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testClient, type ApiResponse, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

// Limits here are small (5 a second per key, 2 per IP) so a test reaches them in a handful of requests.
let runtime: TestRuntime;
let api: TestClient;
let alice: TestMerchant;
let bob: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime({ env: { RATE_LIMIT_PER_KEY: "5", RATE_LIMIT_PER_IP: "2" } });
  api = testClient(runtime);
  alice = await registerTestMerchant(api);
  bob = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

const randomIp = () => `198.18.${randomInt(256)}.${randomInt(1, 255)}`;
const statuses = (responses: ApiResponse[]) => responses.map((response) => response.status);
const count = (responses: ApiResponse[], status: number) => statuses(responses).filter((s) => s === status).length;

function expectRateLimited(response: ApiResponse, policy: string) {
  expect(response.status).toBe(429);
  expect(response.body.code).toBe("rate_limited");
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(response.headers.get("ratelimit-policy")).toContain(policy);
  expect(response.headers.get("ratelimit")).toMatch(/"[a-z_]+";r=\d+;t=\d+/);
}

describe("per API key", () => {
  it("allows the rate plus a burst, then answers 429 with Retry-After and RateLimit headers", async () => {
    const path = `/merchant/${alice.merchant.id}`;
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 30 }, () => api.get(path, { key: alice.apiKey })));
    const seconds = Math.ceil((Date.now() - started) / 1000);
    // 5 a second plus a burst of 5: at least 10 pass, and 5 more for each further second the run took.
    expect(count(answers, 200)).toBeGreaterThanOrEqual(10);
    expect(count(answers, 200)).toBeLessThanOrEqual(10 + 5 * (seconds - 1));
    expect(count(answers, 200) + count(answers, 429)).toBe(30);
    expectRateLimited(answers.find((answer) => answer.status === 429)!, '"api_key";q=5;w=1, "api_key_burst";q=5;w=10');
  });

  it("counts each key on its own", async () => {
    const response = await api.get(`/merchant/${bob.merchant.id}`, { key: bob.apiKey });
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit-policy")).toBe('"api_key";q=5;w=1, "api_key_burst";q=5;w=10');
    expect(response.headers.get("ratelimit")).toMatch(/^"api_key";r=[0-4];t=1$/);
  });
});

describe("register", () => {
  // Default limits (20 a second per IP) here: this is about the route's own, stricter hourly policy.
  let defaults: TestRuntime;
  let defaultsApi: TestClient;
  beforeAll(async () => {
    defaults = await createTestRuntime();
    defaultsApi = testClient(defaults);
  });
  afterAll(() => defaults.close());

  it("is limited to 10 an hour per client IP, counting refused attempts too", async () => {
    const api = defaultsApi;
    const ip = randomIp();
    for (let i = 0; i < 10; i++) {
      const response = await api.post("/merchant/register", { body: {}, headers: { "x-forwarded-for": ip } });
      expect(response.status).toBe(400);
      expect(response.headers.get("ratelimit-policy")).toBe('"ip";q=20;w=1, "ip_burst";q=20;w=10, "register";q=10;w=3600');
    }
    const blocked = await api.post("/merchant/register", {
      body: { name: "Eve", email: "eve@example.com", password: "a long enough password" },
      headers: { "x-forwarded-for": ip },
    });
    expectRateLimited(blocked, '"register";q=10;w=3600');
    expect(Number(blocked.headers.get("retry-after"))).toBeLessThanOrEqual(3600);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(3000);

    // Prepending a made-up address does not help: only the hop our proxy appended counts.
    const spoofed = await api.post("/merchant/register", { body: {}, headers: { "x-forwarded-for": `203.0.113.9, ${ip}` } });
    expect(spoofed.status).toBe(429);
    // Another client is not affected.
    const other = await api.post("/merchant/register", { body: {}, headers: { "x-forwarded-for": randomIp() } });
    expect(other.status).toBe(400);
  });
});

describe("per IP", () => {
  it("limits unauthenticated routes per IP", async () => {
    const ip = randomIp();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => api.get("/health", { headers: { "x-forwarded-for": ip } })),
    );
    expect(count(answers, 200)).toBeGreaterThanOrEqual(4);
    expect(count(answers, 200)).toBeLessThanOrEqual(6);
    expectRateLimited(answers.find((answer) => answer.status === 429)!, '"ip";q=2;w=1');
  });

  it("counts failed authentications per IP, so keys cannot be guessed at full speed", async () => {
    const ip = randomIp();
    const guess = alice.apiKey.slice(0, -1) + (alice.apiKey.endsWith("A") ? "B" : "A");
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        api.get(`/merchant/${alice.merchant.id}`, { key: guess, headers: { "x-forwarded-for": ip } }),
      ),
    );
    expect(count(answers, 401)).toBeGreaterThanOrEqual(4);
    expect(count(answers, 401)).toBeLessThanOrEqual(6);
    expect(count(answers, 429)).toBe(12 - count(answers, 401));
    // The merchant's own key still works from elsewhere.
    expect((await api.get(`/merchant/${alice.merchant.id}`, { key: alice.apiKey })).status).not.toBe(401);
  });
});
