import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import type { TestClient } from "./client";

export interface TestMerchant {
  merchant: { id: string; name: string; email: string; webhookUrl: string | null; [field: string]: unknown };
  apiKey: string;
  webhookSecret: string;
  password: string;
}

/** Registers a merchant through the public API, as a real client would. */
export async function registerTestMerchant(
  api: TestClient,
  overrides: Record<string, unknown> = {},
): Promise<TestMerchant> {
  const suffix = randomBytes(4).toString("hex");
  const password = `correct horse ${suffix}`;
  const response = await api.post("/merchant/register", {
    body: { name: `Shop ${suffix}`, email: `owner-${suffix}@example.com`, password, ...overrides },
    headers: { "x-forwarded-for": `10.${suffix.length}.${parseInt(suffix.slice(0, 2), 16)}.${parseInt(suffix.slice(2, 4), 16)}` },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { ...response.body, password };
}

/** A new `sk_test_` key of the merchant, made with its live key through `POST /merchant/api-key` (docs/test-mode.md). */
export async function createTestKey(api: TestClient, merchant: TestMerchant, name = "test mode"): Promise<string> {
  const response = await api.post("/merchant/api-key", { key: merchant.apiKey, body: { mode: "test", name } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.secret;
}
