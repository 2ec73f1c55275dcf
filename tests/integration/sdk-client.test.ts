import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../sdk/src";
import { dispatch } from "../../src/server/http/dispatch";
import { routes } from "../../src/server/http/routes";
import { testClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;
let merchant: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime();
  merchant = await registerTestMerchant(testClient(runtime));
});
afterAll(() => runtime.close());

/** The SDK over the real route pipeline: its fetch is the catch-all's dispatch, no HTTP server. */
const sdk = (apiKey?: string) =>
  createClient({ apiKey, baseUrl: "http://localhost/", fetch: (request: Request) => dispatch(runtime, routes, request) });

describe("the SDK client", () => {
  it("creates an invoice and reads it back, typed, with the key it was given", async () => {
    const client = sdk(merchant.apiKey);
    const created = await client.POST("/invoice", { body: { amount: "19.99", currency: "EUR", orderId: "sdk-1" } });
    expect(created.response.status).toBe(201);
    const id = created.data!.id;
    const read = await client.GET("/invoice/{id}", { params: { path: { id } } });
    expect(read.data).toMatchObject({ id, amount: "19.99", currency: "EUR", orderId: "sdk-1", status: "open" });
  });

  it("answers a problem as `error` with its stable code, never as data", async () => {
    const invalid = await sdk(merchant.apiKey).POST("/invoice", { body: { amount: "-1", currency: "EUR" } });
    expect(invalid.data).toBeUndefined();
    expect(invalid.response.status).toBe(400);
    expect(invalid.error).toMatchObject({ code: "validation_failed" });
    const anonymous = await sdk().GET("/invoice", {});
    expect(anonymous.response.status).toBe(401);
    expect(anonymous.error).toMatchObject({ code: "unauthenticated" });
  });
});
