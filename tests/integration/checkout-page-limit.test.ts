import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as checkoutPage } from "../../src/app/pay/[invoiceId]/route";
import { CHECKOUT_LIMIT } from "../../src/server/rate-limit/limits";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

/**
 * The public checkout page `/pay/{id}` needs no key, and each load reads the database: it is counted per payer IP
 * against the budget it shares with the status the page polls (`GET /checkout/{id}`), so guessing invoice ids
 * or reloading in a loop is held to CHECKOUT_LIMIT, and one payer's loop does not spend another's.
 */
let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;
let invoiceId: string;
const runtimeRef = globalThis as typeof globalThis & { __mpsRuntime?: Promise<unknown> };

beforeAll(async () => {
  runtime = await createTestRuntime({ env: { RATE_LIMIT_PER_IP: "1000" } });
  // The route handler serves the process's runtime (server/runtime.ts): this test's.
  runtimeRef.__mpsRuntime = Promise.resolve(runtime);
  api = testClient(runtime);
  shop = await registerTestMerchant(api);
  const created = await api.post("/invoice", { key: shop.apiKey, body: { amount: "12.00", currency: "EUR" } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  invoiceId = created.body.id;
});
afterAll(async () => {
  runtimeRef.__mpsRuntime = undefined;
  await runtime?.close();
});

const load = (id: string, ip: string) =>
  checkoutPage(new Request(`http://localhost/pay/${id}`, { headers: { "x-forwarded-for": ip } }), { params: Promise.resolve({ invoiceId: id }) });

describe("the checkout page's rate limit", () => {
  it("answers 429 with Retry-After once one address spends the checkout budget, page and status API together", async () => {
    const payer = "203.0.113.7";
    const polled = await api.get(`/checkout/${invoiceId}`, { headers: { "x-forwarded-for": payer } });
    expect(polled.status).toBe(200);
    for (let i = 1; i < CHECKOUT_LIMIT.limit; i++) {
      // Unknown ids count too: guessing is what the limit is for.
      const page = await load(i % 2 === 0 ? invoiceId : "inv_00000000000000000000000000", payer);
      expect(page.status, `load ${i}`).toBe(i % 2 === 0 ? 200 : 404);
    }
    const refused = await load(invoiceId, payer);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.headers.get("content-type")).toContain("text/html");
    expect(refused.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(await refused.text()).toContain("Too many requests");
    expect((await api.get(`/checkout/${invoiceId}`, { headers: { "x-forwarded-for": payer } })).status).toBe(429);

    // Another payer is not affected.
    const other = await load(invoiceId, "198.51.100.20");
    expect(other.status).toBe(200);
    expect(await other.text()).toContain("<h1>Pay €12.00</h1>");
  });
});
