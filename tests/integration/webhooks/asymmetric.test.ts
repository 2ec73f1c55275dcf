import { createPublicKey, verify, type JsonWebKey } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitEvent } from "../../../src/server/services/events/emit";
import { deliveryAsCurl } from "../../../src/server/services/webhooks/curl";
import { generateSigningKey, parseSigningKey } from "../../../src/server/crypto/webhook-signing-key";
import { deliveryDepsFor } from "../../../src/server/background/start";
import { deliverDueNow } from "../../support/deliver-due-now";
import { testClient, type TestClient } from "../../support/client";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { merchantContext } from "./context";
import { startReceiver, type TestReceiver } from "./receiver";

/** Standard Webhooks v1a: the service signs with its Ed25519 key too, and publishes the public key. */
const signingKey = generateSigningKey();
let runtime: TestRuntime;
let api: TestClient;
let receiver: TestReceiver;
let shop: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime({ env: { WEBHOOK_SIGNING_KEY: signingKey, LOG_LEVEL: "trace" } });
  api = testClient(runtime);
  receiver = await startReceiver();
  shop = await registerTestMerchant(api, { webhookUrl: receiver.url() });
});
afterAll(async () => {
  await receiver.close();
  await runtime.close();
});

/** What a receiver does with only the published key: an Ed25519 check of "id.timestamp.body". */
function verifiesWith(jwk: JsonWebKey, headers: Record<string, string>, body: string): boolean {
  const key = createPublicKey({ key: jwk, format: "jwk" });
  const content = Buffer.from(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${body}`);
  return headers["webhook-signature"]!
    .split(" ")
    .filter((entry) => entry.startsWith("v1a,"))
    .some((entry) => verify(null, content, key, Buffer.from(entry.slice(4), "base64")));
}

describe("v1a webhook signatures", () => {
  it("publishes the public key as a cacheable JWK Set, without auth", async () => {
    const response = await api.get("/webhook/signing-keys");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toMatch(/public/);
    expect(response.body.keys).toEqual([
      { kty: "OKP", crv: "Ed25519", x: expect.any(String), kid: expect.any(String), use: "sig", alg: "EdDSA", whpk: expect.stringMatching(/^whpk_/) },
    ]);
    expect(response.text).not.toContain(signingKey.slice("whsk_".length));
  });

  it("signs every delivery with v1a beside v1: the published key verifies it, and so do v1 verifiers", async () => {
    const [jwk] = (await api.get("/webhook/signing-keys")).body.keys;
    await emitEvent({
      ctx: merchantContext(runtime, shop.merchant.id),
      input: { type: "payment.confirmed", data: { id: "pay_x" }, subjectId: "pay_x" },
    });
    expect(await deliverDueNow(deliveryDepsFor(runtime))).toBe(1);
    const [request] = receiver.received;
    expect(request!.headers["webhook-signature"]).toMatch(/^v1,\S+ v1a,\S+$/);
    expect(verifiesWith(jwk, request!.headers, request!.body)).toBe(true);
    expect(verifiesWith(jwk, request!.headers, request!.body.replace("pay_x", "pay_y"))).toBe(false);
    // The official library verifies the v1 signature and ignores the v1a one.
    expect(new Webhook(shop.webhookSecret).verify(request!.body, request!.headers)).toMatchObject({ type: "payment.confirmed" });
    // So does our verify endpoint.
    const verified = await api.post("/webhook/verify", {
      key: shop.apiKey,
      body: {
        payload: request!.body,
        headers: Object.fromEntries(["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [name, request!.headers[name]])),
      },
    });
    expect(verified.body).toMatchObject({ valid: true });
  });

  it("signs the test event and the dashboard's curl command with v1a too", async () => {
    receiver.received.length = 0;
    const [jwk] = (await api.get("/webhook/signing-keys")).body.keys;
    const sent = await api.post("/webhook/test", { key: shop.apiKey, body: {} });
    expect(sent.body).toMatchObject({ delivered: true });
    const [request] = receiver.received;
    expect(verifiesWith(jwk, request!.headers, request!.body)).toBe(true);
    const { command } = await deliveryAsCurl({ ctx: merchantContext(runtime, shop.merchant.id), input: { id: sent.body.deliveryId } });
    expect(command).toMatch(/webhook-signature: v1,\S+ v1a,\S+'/);
  });

  it("never writes the signing key to the logs", () => {
    expect(runtime.logs.join("\n")).not.toContain(signingKey.slice("whsk_".length));
  });

  it("sends no v1a and publishes an empty set when no key is configured", async () => {
    const plain = await createTestRuntime();
    try {
      const response = await testClient(plain).get("/webhook/signing-keys");
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ keys: [] });
    } finally {
      await plain.close();
    }
  });
});

describe("v1a signing key rotation (two keys configured: the new one, then the old one)", () => {
  const next = generateSigningKey();
  const previous = signingKey;
  let rotating: TestRuntime;
  let rotatingApi: TestClient;
  let rotatingReceiver: TestReceiver;
  let rotatingShop: TestMerchant;

  beforeAll(async () => {
    rotating = await createTestRuntime({ env: { WEBHOOK_SIGNING_KEY: `${next},\n${previous}`, LOG_LEVEL: "trace" } });
    rotatingApi = testClient(rotating);
    rotatingReceiver = await startReceiver();
    rotatingShop = await registerTestMerchant(rotatingApi, { webhookUrl: rotatingReceiver.url() });
  });
  afterAll(async () => {
    await rotatingReceiver.close();
    await rotating.close();
  });

  it("publishes both public keys, the current one first", async () => {
    const response = await rotatingApi.get("/webhook/signing-keys");
    expect(response.status).toBe(200);
    expect(response.body.keys.map((jwk: { whpk: string }) => jwk.whpk)).toEqual([parseSigningKey(next).publicKey, parseSigningKey(previous).publicKey]);
    const [current, old] = response.body.keys;
    expect(current.kid).not.toBe(old.kid);
    // The old key's entry is the one a receiver pinned before the rotation.
    expect(old).toEqual((await api.get("/webhook/signing-keys")).body.keys[0]);
  });

  it("signs a delivered webhook with each key: a receiver holding either published key verifies it", async () => {
    const [current, old] = (await rotatingApi.get("/webhook/signing-keys")).body.keys;
    await emitEvent({
      ctx: merchantContext(rotating, rotatingShop.merchant.id),
      input: { type: "payment.confirmed", data: { id: "pay_r" }, subjectId: "pay_r" },
    });
    expect(await deliverDueNow(deliveryDepsFor(rotating))).toBe(1);
    const [request] = rotatingReceiver.received;
    const { headers, body } = request!;
    expect(headers["webhook-signature"]).toMatch(/^v1,\S+ v1a,\S+ v1a,\S+$/);
    const [, first, second] = headers["webhook-signature"]!.split(" ");
    // One v1a entry per key, in configured order.
    expect(verifiesWith(current, { ...headers, "webhook-signature": first! }, body)).toBe(true);
    expect(verifiesWith(old, { ...headers, "webhook-signature": second! }, body)).toBe(true);
    for (const jwk of [current, old]) {
      expect(verifiesWith(jwk, headers, body)).toBe(true);
      expect(verifiesWith(jwk, headers, body.replace("pay_r", "pay_s"))).toBe(false);
    }
    const stranger = parseSigningKey(generateSigningKey()).jwk;
    expect(verifiesWith({ ...stranger }, headers, body)).toBe(false);
    expect(new Webhook(rotatingShop.webhookSecret).verify(body, headers)).toMatchObject({ type: "payment.confirmed" });
  });

  it("never writes either signing key to the logs", () => {
    const logs = rotating.logs.join("\n");
    for (const key of [next, previous]) expect(logs).not.toContain(key.slice("whsk_".length));
  });
});
