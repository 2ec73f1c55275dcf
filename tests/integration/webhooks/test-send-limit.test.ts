import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../../src/server/services/api-keys/create";
import { testClient, type TestClient } from "../../support/client";
import { dashboardAs, merchantSession } from "../../support/dashboard";
import { registerTestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { merchantContext } from "./context";
import { startReceiver, type TestReceiver } from "./receiver";

/** POST /webhook/test makes an outbound request on demand: its sends have a stricter limit of their own. */

let runtime: TestRuntime;
let api: TestClient;
let receiver: TestReceiver;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await runtime.close();
});

describe("POST /webhook/test limit", () => {
  it("allows 10 sends a minute per merchant, whichever of its keys sends; dry runs and other merchants are not held back", async () => {
    const merchant = await registerTestMerchant(api, { webhookUrl: receiver.url("/limited") });
    const { key: secondKey } = await createApiKey({ ctx: merchantContext(runtime, merchant.merchant.id), input: { name: "second" } });
    const keys = [merchant.apiKey, secondKey];

    for (let i = 0; i < 10; i++) {
      const response = await api.post("/webhook/test", { key: keys[i % 2], body: {} });
      expect(response.status).toBe(200);
      expect(response.body.delivered).toBe(true);
      expect(response.headers.get("ratelimit-policy")).toContain('"webhook_test";q=10;w=60');
    }
    const refused = await api.post("/webhook/test", { key: secondKey, body: { url: receiver.url("/limited") } });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(refused.headers.get("ratelimit-policy")).toMatch(/^"api_key";q=(\d+);w=1, "api_key_burst";q=\1;w=10, "webhook_test";q=10;w=60$/);
    expect(refused.headers.get("ratelimit")).toMatch(/"webhook_test";r=0;t=\d+$/);
    expect(receiver.received.filter((request) => request.path === "/limited")).toHaveLength(10);

    // A dry run sends nothing and is not counted against sends.
    const dryRun = await api.post("/webhook/test", { key: merchant.apiKey, body: { dryRun: true } });
    expect(dryRun.status).toBe(200);
    expect(dryRun.headers.get("ratelimit-policy")).not.toContain("webhook_test");
    // Another merchant still sends.
    const other = await registerTestMerchant(api, { webhookUrl: receiver.url("/other") });
    expect((await api.post("/webhook/test", { key: other.apiKey, body: {} })).body.delivered).toBe(true);
  });
});

describe("the dashboard's test send", () => {
  it("draws on the same budget as the API: no way around the limit", async () => {
    const merchant = await registerTestMerchant(api, { webhookUrl: receiver.url("/dashboard") });
    const dashboard = dashboardAs(runtime, merchantSession(merchant));
    for (let i = 0; i < 6; i++) expect((await api.post("/webhook/test", { key: merchant.apiKey, body: {} })).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await dashboard.webhooks.sendTest({})).delivered).toBe(true);

    await expect(dashboard.webhooks.sendTest({})).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
    expect((await api.post("/webhook/test", { key: merchant.apiKey, body: {} })).status).toBe(429);
    expect((await dashboard.webhooks.sendTest({ dryRun: true })).usable).toBe(true);
    expect(receiver.received.filter((request) => request.path === "/dashboard")).toHaveLength(10);
  });
});
