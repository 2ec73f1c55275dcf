import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events } from "../../src/server/db/schema";
import { EXAMPLE_JWK } from "../../src/server/openapi/examples";
import { eventBodySchema } from "../../src/server/openapi/webhooks";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;
let api: TestClient;
let merchant: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  merchant = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

/** The events stored so far, as the bodies webhooks send: `{type, timestamp, data}`. */
async function sentBodies() {
  const rows = await runtime.database.db.select().from(events);
  return rows.map((row) => ({ type: row.type, timestamp: row.createdAt.toISOString(), data: row.data }));
}

// The documented payloads are written by hand beside the code that emits them: this holds the two together
// by causing each event through the API and parsing what was stored with the documented schema.
describe("webhook payloads match the OpenAPI document", () => {
  it("keys.published", async () => {
    const publish = (jwk: object) =>
      api.post("/merchant/keys/publish", { key: merchant.apiKey, body: { keys: [{ jwk, kid: "signing", use: "sig" }] } });
    expect((await publish({ ...EXAMPLE_JWK })).status).toBe(201);
    // Another key under the same kid retires the first: the second event fills `retired` too.
    expect((await publish(generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" }))).status).toBe(201);
    const bodies = (await sentBodies()).filter((body) => body.type === "keys.published");
    expect(bodies.some((body) => (body.data.retired as unknown[]).length > 0)).toBe(true);
    for (const body of bodies) {
      const result = eventBodySchema("keys.published").safeParse(body);
      expect(result.success ? [] : result.error.issues, JSON.stringify(body)).toEqual([]);
    }
  });
});
