import { eq } from "drizzle-orm";
import { auditLog, merchants } from "../../src/server/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";
import { dumpAllTables } from "../support/dump";

let runtime: TestRuntime;
let api: TestClient;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
});
afterAll(() => runtime.close());

describe("POST /merchant/register", () => {
  it("creates a merchant with an API key and a webhook secret, each shown once", async () => {
    const { merchant, apiKey, webhookSecret } = await registerTestMerchant(api, { website: "https://shop.example" });
    expect(merchant.id).toMatch(/^mer_/);
    expect(merchant.website).toBe("https://shop.example");
    expect(merchant.webhookEvents).toContain("payment.confirmed");
    expect(apiKey).toMatch(/^sk_live_/);
    expect(webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  });

  it("normalises the email to lower case", async () => {
    const { merchant } = await registerTestMerchant(api, { email: "Mixed.Case@Example.COM" });
    expect(merchant.email).toBe("mixed.case@example.com");
  });

  it("stores no secret in plaintext and logs none", async () => {
    const { apiKey, webhookSecret, password } = await registerTestMerchant(api);
    const dump = await dumpAllTables(runtime.database.db);
    const secretBody = webhookSecret.slice("whsec_".length);
    for (const secret of [apiKey, apiKey.slice(8, 30), secretBody, password]) {
      expect(dump).not.toContain(secret);
      expect(runtime.logs.join("\n")).not.toContain(secret);
    }
  });

  it("answers a duplicate email with 409 email_taken, whatever its case", async () => {
    const { merchant } = await registerTestMerchant(api);
    const again = await api.post("/merchant/register", {
      body: { name: "Copy", email: merchant.email.toUpperCase(), password: "another long password" },
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("email_taken");
  });

  it("lets exactly one of several concurrent registrations of one email win", async () => {
    const body = { name: "Race", email: `race-${Date.now()}@example.com`, password: "a long enough password" };
    const answers = await Promise.all(Array.from({ length: 5 }, () => api.post("/merchant/register", { body })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const rows = await runtime.database.db.select().from(merchants).where(eq(merchants.email, body.email));
    expect(rows).toHaveLength(1);
  });

  it("writes the registration and its first key to the audit log, with the request id", async () => {
    const response = await api.post("/merchant/register", {
      body: { name: "Audited", email: `audited-${Date.now()}@example.com`, password: "a long enough password" },
      headers: { "x-forwarded-for": "198.51.100.20" },
    });
    expect(response.status).toBe(201);
    const merchantId = response.body.merchant.id;
    const entries = await runtime.database.db.select().from(auditLog).where(eq(auditLog.merchantId, merchantId));
    expect(entries.map((entry) => entry.action).sort()).toEqual(["api_key.created", "merchant.registered"]);
    for (const entry of entries) expect(entry.requestId).toBe(response.headers.get("x-request-id"));
    expect(JSON.stringify(entries)).not.toContain(response.body.apiKey);
  });
});
