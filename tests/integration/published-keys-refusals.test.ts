import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events, publishedKeys } from "../../src/server/db/schema";
import {
  generateKeyPair,
  privateKeysAsText,
  privateMaterialCases,
  publicJwk,
  unsupportedCases,
  type RefusalCase,
} from "../support/key-fixtures";
import { KEY_REFUSALS } from "../../src/server/keys/refusal";
import { testClient, type ApiResponse, type TestClient } from "../support/client";
import { dumpAllTables } from "../support/dump";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

/**
 * Every kind of refused key, through the real pipeline: the answer names the refusal, and afterwards not a
 * fragment of any submitted key is found in any table (idempotency records included: each request carries an
 * Idempotency-Key), in any log line (captured at trace level), or in any response.
 */
let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;
const sent: { refusalCase: RefusalCase; response: ApiResponse }[] = [];

beforeAll(async () => {
  runtime = await createTestRuntime({ env: { LOG_LEVEL: "trace" } });
  api = testClient(runtime);
  shop = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

// A jwk that is not an object fails the body schema (400) before the key reader sees it; tested below.
const refusals = [...privateMaterialCases(), ...unsupportedCases()].filter(
  (c) => c.submission.jwk === undefined || typeof c.submission.jwk === "object",
);

/** A public key the verb would accept. */
const validKey = () => ({ jwk: publicJwk(generateKeyPair("Ed25519").publicKey) });

function publish(entries: unknown[], idempotencyKey: string) {
  return api.post("/merchant/keys/publish", {
    key: shop.apiKey,
    body: { keys: entries },
    headers: { "idempotency-key": idempotencyKey },
  });
}

describe("POST /merchant/keys/publish refuses", () => {
  it.each(refusals.map((c, i) => [c.name, c, i] as const))("%s", async (_, refusalCase, i) => {
    const response = await publish([{ ...refusalCase.submission, use: "sig" }], `refusal-${i}`);
    sent.push({ refusalCase, response });
    const { code } = KEY_REFUSALS[refusalCase.reason];
    expect(response.status, response.text).toBe(422);
    expect(response.body.code).toBe(code);
    expect(response.body.errors).toEqual([
      { path: expect.stringMatching(/^body\.keys\.0\.(pem|jwk)$/), message: KEY_REFUSALS[refusalCase.reason].detail },
    ]);
  });

  it("answers private material as such even when other fields are invalid too", async () => {
    const secret = privateMaterialCases()[0]!;
    const noUse = await publish([{ ...secret.submission, kid: "has space", label: "" }], "refusal-no-use");
    sent.push({ refusalCase: secret, response: noUse });
    expect(noUse.status).toBe(422);
    expect(noUse.body.code).toBe("private_key_material");

    const later = await publish([{ jwk: { kty: "OKP" }, use: "sig" }, { ...secret.submission, use: "sig" }], "refusal-2nd");
    sent.push({ refusalCase: secret, response: later });
    expect(later.body.code).toBe("private_key_material");
    expect(later.body.errors[0].path).toMatch(/^body\.keys\.1\./);
  });

  it.each([
    ["an unknown field of a key", (pem: string) => ({ keys: [{ privateKey: pem, use: "sig" }] }), "body.keys.0.privateKey"],
    ["the label of a valid key", (pem: string) => ({ keys: [{ ...validKey(), use: "sig", label: pem }] }), "body.keys.0.label"],
    ["an unknown top-level field", (pem: string) => ({ keys: [{ ...validKey(), use: "sig" }], backup: { pem } }), "body.backup.pem"],
  ])("answers a private key in %s as private_key_material, not as a bad request", async (_, body, path) => {
    // Ed25519's PKCS#8 PEM is short enough (≈ 120 characters) to pass a label's length limit.
    const secret = privateMaterialCases().find((c) => c.name === "Ed25519 PKCS#8 PRIVATE KEY")!;
    const response = await api.post("/merchant/keys/publish", {
      key: shop.apiKey,
      body: body(secret.submission.pem as string),
      headers: { "idempotency-key": `refusal-elsewhere-${path}` },
    });
    sent.push({ refusalCase: secret, response });
    expect(response.status, response.text).toBe(422);
    expect(response.body.code).toBe("private_key_material");
    expect(response.body.errors).toEqual([{ path, message: expect.stringContaining("treat this key as exposed") }]);
  });

  it.each(privateKeysAsText().map((text) => [text.name, text] as const))(
    "answers %s in a label as private_key_material",
    async (name, { text, fragments }) => {
      const response = await api.post("/merchant/keys/publish", {
        key: shop.apiKey,
        body: { keys: [{ ...validKey(), use: "sig", label: text }] },
        headers: { "idempotency-key": `refusal-label-${name}` },
      });
      sent.push({ refusalCase: { name, submission: {}, reason: "private_marker", fragments }, response });
      expect(response.status, response.text).toBe(422);
      expect(response.body.code).toBe("private_key_material");
      expect(response.body.errors).toEqual([{ path: "body.keys.0.label", message: expect.stringContaining("treat this key as exposed") }]);
    },
  );

  it("answers a private JWK sent beside the keys as private_key_material", async () => {
    const secret = privateMaterialCases().find((c) => c.name === "P-256 private JWK")!;
    const response = await api.post("/merchant/keys/publish", {
      key: shop.apiKey,
      body: { keys: [{ ...validKey(), use: "sig" }], signingKey: secret.submission.jwk },
      headers: { "idempotency-key": "refusal-elsewhere-jwk" },
    });
    sent.push({ refusalCase: secret, response });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].path).toBe("body.signingKey");
  });

  it("refuses a jwk that is not an object as a bad request", async () => {
    const [notObject] = unsupportedCases().filter((c) => typeof c.submission.jwk === "string");
    const response = await publish([{ ...notObject!.submission, use: "sig" }], "refusal-jwk-string");
    sent.push({ refusalCase: notObject!, response });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("validation_failed");
  });

  it("keeps no fragment of any refused key in any table, log line or response", async () => {
    expect(sent.length).toBeGreaterThan(refusals.length);
    // Also searched with whitespace and JSON escapes removed, so a fragment split across lines still matches.
    const squeeze = (text: string) => text.replace(/\\[nr]|\s/g, "");
    const dump = await dumpAllTables(runtime.database.db);
    const logs = runtime.logs.join("\n");
    const surfaces = (response: ApiResponse) => ({
      "table rows": [dump, squeeze(dump)],
      logs: [logs, squeeze(logs)],
      response: [response.text, squeeze(response.text)],
    });
    expect(dump).toContain(shop.merchant.id); // the dump does see the data
    expect(logs).toContain("/merchant/keys/publish"); // and the log captured these requests
    let checked = 0;
    for (const { refusalCase, response } of sent) {
      for (const fragment of refusalCase.fragments) {
        for (const [where, texts] of Object.entries(surfaces(response))) {
          for (const text of texts) expect(text, `${refusalCase.name}: ${where}`).not.toContain(fragment);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("stored no key and emitted no event", async () => {
    const directory = await api.get(`/directory/${shop.merchant.id}`);
    expect(directory.body).toEqual({ keys: [] });
    expect(await runtime.database.db.select().from(publishedKeys)).toEqual([]);
    expect(await runtime.database.db.select().from(events).where(eq(events.type, "keys.published"))).toEqual([]);
  });
});
