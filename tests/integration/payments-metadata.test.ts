import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payments } from "../../src/server/db/schema";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { externalId } from "../support/payments";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  shop = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

/** Sends metadata as raw JSON text: JSON.stringify could not even write `1e400` or a 23-digit integer. */
function confirmWithMetadata(id: string, metadataJson: string) {
  const rawBody = `{"externalId": ${JSON.stringify(id)}, "amount": "1.00", "currency": "USD", "metadata": ${metadataJson}}`;
  return api.post("/payment/confirm", { key: shop.apiKey, rawBody, headers: { "content-type": "application/json" } });
}

describe("payment metadata comes back exactly as sent, or is refused", () => {
  it.each([
    ['{"n": 1e400}', "body.metadata.n"],
    ['{"n": -1e400}', "body.metadata.n"],
    ['{"n": 12345678901234567890123}', "body.metadata.n"],
    ['{"n": 9007199254740992}', "body.metadata.n"],
    ['{"n": -9007199254740992}', "body.metadata.n"],
    ['{"deep": [1, {"n": 1e300}]}', "body.metadata.deep.1.n"],
  ])("refuses %s with a 400 at %s telling to send the number as a string, and writes nothing", async (metadata, path) => {
    const id = externalId();
    const response = await confirmWithMetadata(id, metadata);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("validation_failed");
    const error = response.body.errors.find((item: { path: string }) => item.path === path);
    expect(error?.message).toMatch(/send exact or larger numbers as strings/);
    expect(await runtime.database.db.select().from(payments).where(eq(payments.externalId, id))).toHaveLength(0);
  });

  it.each([
    ['{"keep": 1, "__proto__": {"x": 1}}', "body.metadata.__proto__"],
    ['{"outer": {"__proto__": "x"}}', "body.metadata.outer.__proto__"],
  ])("refuses a __proto__ key in %s with a 400 at %s instead of dropping it", async (metadata, path) => {
    const id = externalId();
    const response = await confirmWithMetadata(id, metadata);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("validation_failed");
    expect(response.body.errors).toContainEqual({ path, message: "a key named __proto__ is not accepted" });
    expect(await runtime.database.db.select().from(payments).where(eq(payments.externalId, id))).toHaveLength(0);
  });

  it("keeps the largest safe integers, large numbers sent as strings and keys named like Object members", async () => {
    const metadata =
      '{"max": 9007199254740991, "min": -9007199254740991, "exact": "12345678901234567890123", "constructor": "c", ' +
      '"prototype": {"constructor": {"prototype": 1}}, "toString": [true], "hasOwnProperty": null, "half": 0.5}';
    const created = await confirmWithMetadata(externalId(), metadata);
    expect(created.status).toBe(201);
    const read = await api.get(`/payment/${created.body.id}`, { key: shop.apiKey });
    expect(read.body.metadata).toEqual(JSON.parse(metadata));
    expect(Object.keys(read.body.metadata).sort()).toEqual(Object.keys(JSON.parse(metadata)).sort());
    expect(read.text).toContain('"max":9007199254740991');
    expect(read.text).toContain('"exact":"12345678901234567890123"');
  });
});
