import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, merchants, webhookDeliveries } from "../../src/server/db/schema";
import { URL_REMOVED_ERROR } from "../../src/server/services/webhooks/follow-url-change";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;
let api: TestClient;
let alice: TestMerchant;
let bob: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  alice = await registerTestMerchant(api);
  bob = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

const profilePath = (merchant: TestMerchant) => `/merchant/${merchant.merchant.id}`;

async function audits(merchantId: string, action: string) {
  const rows = await runtime.database.db.select().from(auditLog).where(eq(auditLog.merchantId, merchantId));
  return rows.filter((row) => row.action === action);
}

describe("GET /merchant/{id}", () => {
  it("answers the merchant's own profile in the documented shape", async () => {
    const response = await api.get(profilePath(alice), { key: alice.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...alice.merchant });
    expect(Object.keys(response.body).sort()).toEqual(
      ["createdAt", "email", "id", "name", "paymentInstructions", "status", "updatedAt", "webhookEvents", "webhookUrl", "website"].sort(),
    );
  });

  it("answers 404 not_found for another merchant's id and for ids that do not exist, alike", async () => {
    const other = await api.get(profilePath(bob), { key: alice.apiKey });
    const missing = await api.get("/merchant/mer_01jzzzzzzzzzzzzzzzzzzzzzzz", { key: alice.apiKey });
    const junk = await api.get("/merchant/%27%20or%201%3D1", { key: alice.apiKey });
    for (const response of [other, missing, junk]) {
      expect(response.status).toBe(404);
      expect(response.body.code).toBe("not_found");
    }
    expect(other.body.detail).toBe(missing.body.detail);
    expect(other.text).not.toContain(bob.merchant.email);
  });
});

describe("PUT /merchant/{id}", () => {

  it("updates name, website, webhook URL and event types, and audits the changed fields", async () => {
    const response = await api.put(profilePath(alice), {
      key: alice.apiKey,
      body: {
        name: "  Alice's Shop ",
        website: "https://alice.example",
        webhookUrl: "http://127.0.0.1:9/hooks",
        webhookEvents: ["payment.confirmed", "payment.failed", "payment.confirmed"],
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: alice.merchant.id,
      name: "Alice's Shop",
      website: "https://alice.example",
      webhookUrl: "http://127.0.0.1:9/hooks",
      webhookEvents: ["payment.confirmed", "payment.failed"],
    });
    expect(new Date(response.body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(alice.merchant.updatedAt as string).getTime());
    expect((await api.get(profilePath(alice), { key: alice.apiKey })).body).toEqual(response.body);

    const [entry] = await audits(alice.merchant.id, "merchant.updated");
    expect(entry).toMatchObject({ actorType: "api_key", targetId: alice.merchant.id });
    expect(entry!.details).toMatchObject({ fields: ["name", "website", "webhookUrl", "webhookEvents"] });
    expect((entry!.details as { changes: Record<string, unknown> }).changes.name).toEqual({ from: alice.merchant.name, to: "Alice's Shop" });
    expect(entry!.requestId).toBe(response.headers.get("x-request-id"));
  });

  it("leaves absent fields alone, clears with null, and writes nothing when nothing changes", async () => {
    const before = (await api.get(profilePath(alice), { key: alice.apiKey })).body;
    const cleared = await api.put(profilePath(alice), { key: alice.apiKey, body: { webhookUrl: null } });
    expect(cleared.body).toMatchObject({ webhookUrl: null, name: before.name, website: before.website });
    expect(cleared.body.webhookEvents).toEqual(before.webhookEvents);

    const auditCount = (await audits(alice.merchant.id, "merchant.updated")).length;
    const same = await api.put(profilePath(alice), { key: alice.apiKey, body: { name: before.name } });
    expect(same.status).toBe(200);
    expect(same.body.updatedAt).toBe(cleared.body.updatedAt);
    expect(await audits(alice.merchant.id, "merchant.updated")).toHaveLength(auditCount);
  });

  it("moves queued deliveries to a new webhook URL, and fails them when the URL is removed; history stays", async () => {
    const carol = await registerTestMerchant(api, { webhookUrl: "http://127.0.0.1:9/old" });
    const pay = () =>
      api.post("/payment/confirm", { key: carol.apiKey, body: { externalId: `ord-${crypto.randomUUID()}`, amount: "1.00", currency: "USD" } });
    expect((await pay()).status).toBe(201);
    expect((await pay()).status).toBe(201);
    const deliveriesOf = () =>
      runtime.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.merchantId, carol.merchant.id)).orderBy(webhookDeliveries.id);
    const [done, queued] = await deliveriesOf();
    await runtime.database.db.update(webhookDeliveries).set({ status: "delivered", nextAttemptAt: null }).where(eq(webhookDeliveries.id, done!.id));

    expect((await api.put(`/merchant/${carol.merchant.id}`, { key: carol.apiKey, body: { webhookUrl: "http://127.0.0.1:9/new" } })).status).toBe(200);
    expect(await deliveriesOf()).toMatchObject([
      { id: done!.id, status: "delivered", url: "http://127.0.0.1:9/old" },
      { id: queued!.id, status: "pending", url: "http://127.0.0.1:9/new" },
    ]);

    expect((await api.put(`/merchant/${carol.merchant.id}`, { key: carol.apiKey, body: { webhookUrl: null } })).status).toBe(200);
    const [, removed] = await deliveriesOf();
    expect(removed).toMatchObject({ status: "failed", nextAttemptAt: null, lastError: URL_REMOVED_ERROR });
    const failed = await api.get("/webhook/failed", { key: carol.apiKey });
    expect(failed.body.data.map((delivery: { id: string }) => delivery.id)).toEqual([queued!.id]);
  });

  it("accepts an empty subscription", async () => {
    const response = await api.put(profilePath(alice), { key: alice.apiKey, body: { webhookEvents: [] } });
    expect(response.body.webhookEvents).toEqual([]);
  });

  it("refuses unknown fields, unknown event types and bad URLs with 400, naming each field", async () => {
    const response = await api.put(profilePath(alice), {
      key: alice.apiKey,
      body: { email: "new@example.com", status: "active", webhookEvents: ["payment.refunded"], website: "ftp://x" },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("validation_failed");
    const paths = response.body.errors.map((error: { path: string }) => error.path);
    expect(paths).toEqual(expect.arrayContaining(["body.webhookEvents.0", "body.website"]));
    expect(JSON.stringify(response.body.errors)).toMatch(/email/);
    expect(JSON.stringify(response.body.errors)).toMatch(/status/);
    const wrongTypes = await api.put(profilePath(alice), { key: alice.apiKey, body: { name: 42, webhookEvents: "all" } });
    expect(wrongTypes.status).toBe(400);
  });

  it("answers 404 for another merchant's id and changes nothing there", async () => {
    const response = await api.put(profilePath(bob), { key: alice.apiKey, body: { name: "Hijacked" } });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe("not_found");
    const [row] = await runtime.database.db.select().from(merchants).where(eq(merchants.id, bob.merchant.id));
    expect(row!.name).toBe(bob.merchant.name);
    expect(await audits(bob.merchant.id, "merchant.updated")).toHaveLength(0);
  });
});

describe("webhook URL checks (private targets not allowed)", () => {
  let strict: TestRuntime;
  let strictApi: TestClient;
  let carol: TestMerchant;

  beforeAll(async () => {
    strict = await createTestRuntime({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "false" } });
    strictApi = testClient(strict);
    carol = await registerTestMerchant(strictApi);
  });
  afterAll(() => strict.close());

  it.each([
    ["plain http", "http://93.184.215.14/hooks"],
    ["a loopback address", "https://127.0.0.1/hooks"],
    ["an IPv4-mapped loopback address", "https://[::ffff:127.0.0.1]/hooks"],
    ["the metadata address", "https://169.254.169.254/latest"],
    ["a private address", "https://10.1.2.3/hooks"],
    ["localhost", "https://localhost/hooks"],
    ["credentials", "https://user:pass@93.184.215.14/hooks"],
  ])("refuses %s with 422 webhook_url_rejected, on update and on register", async (_label, url) => {
    const update = await strictApi.put(`/merchant/${carol.merchant.id}`, { key: carol.apiKey, body: { webhookUrl: url } });
    expect(update.status).toBe(422);
    expect(update.body.code).toBe("webhook_url_rejected");
    const register = await strictApi.post("/merchant/register", {
      body: { name: "Dave", email: `dave-${Date.now()}@example.com`, password: "a long enough password", webhookUrl: url },
      headers: { "x-forwarded-for": "198.51.100.77" },
    });
    expect(register.status).toBe(422);
    expect(register.body.code).toBe("webhook_url_rejected");
  });

  it("accepts a public https URL", async () => {
    const update = await strictApi.put(`/merchant/${carol.merchant.id}`, {
      key: carol.apiKey,
      body: { webhookUrl: "https://93.184.215.14/hooks" },
    });
    expect(update.status).toBe(200);
    expect(update.body.webhookUrl).toBe("https://93.184.215.14/hooks");
  });
});

describe("PUT /merchant/{id} paymentInstructions", () => {
  it("sets and clears the payment instructions shown on checkout pages", async () => {
    const set = await api.put(profilePath(alice), { key: alice.apiKey, body: { paymentInstructions: "  IBAN DE02 1203 0000 0000 2020 51  " } });
    expect(set.status).toBe(200);
    expect(set.body.paymentInstructions).toBe("IBAN DE02 1203 0000 0000 2020 51");
    expect((await api.put(profilePath(alice), { key: alice.apiKey, body: { paymentInstructions: "x".repeat(2001) } })).status).toBe(400);
    const cleared = await api.put(profilePath(alice), { key: alice.apiKey, body: { paymentInstructions: null } });
    expect(cleared.body.paymentInstructions).toBeNull();
  });
});
