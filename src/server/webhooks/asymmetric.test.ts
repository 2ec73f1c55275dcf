import { createPublicKey, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateSigningKey, parseSigningKey, type WebhookSigningKey } from "./asymmetric";
import { generateWebhookSecret, signPayload, verifySignature } from "./signing";

// RFC 8032 §7.1, test 1: the seed, its public key, and the signature of the empty message.
const RFC_SEED = Buffer.from("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "hex");
const RFC_PUBLIC = Buffer.from("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "hex");

/** Whether one base64 signature is the Ed25519 signature of "id.timestamp.body" under `key`'s public key. */
function signedBy(key: WebhookSigningKey, input: { id: string; timestamp: number; body: string }, signature: string): boolean {
  const publicKey = createPublicKey({ key: { ...key.jwk }, format: "jwk" });
  return verify(null, Buffer.from(`${input.id}.${input.timestamp}.${input.body}`), publicKey, Buffer.from(signature, "base64"));
}

/** What a receiver holding only the public key does: an Ed25519 check of each `v1a` entry. */
function v1aVerifies(key: WebhookSigningKey, input: { id: string; timestamp: number; body: string }, header: string): boolean {
  return header
    .split(" ")
    .filter((entry) => entry.startsWith("v1a,"))
    .some((entry) => signedBy(key, input, entry.slice(4)));
}

describe("webhook signing key (v1a)", () => {
  it("reads a whsk_ seed into the RFC 8032 key pair, also in libsodium's 64-byte form", () => {
    for (const raw of [RFC_SEED, Buffer.concat([RFC_SEED, RFC_PUBLIC])]) {
      const key = parseSigningKey(`whsk_${raw.toString("base64")}`);
      expect(key.publicKey).toBe(`whpk_${RFC_PUBLIC.toString("base64")}`);
      expect(key.jwk).toMatchObject({ kty: "OKP", crv: "Ed25519", x: RFC_PUBLIC.toString("base64url"), use: "sig", alg: "EdDSA" });
    }
  });

  it("signs id.timestamp.body so that a plain Ed25519 verifier accepts it, and nothing else", () => {
    const key = parseSigningKey(generateSigningKey());
    const input = { id: "evt_1", timestamp: 1_795_348_800, body: '{"a":1}' };
    for (const body of [input.body, Buffer.from(input.body)]) {
      const [, v1a] = signPayload({ ...input, body, secrets: [generateWebhookSecret()], signingKey: key }).split(" ");
      expect(signedBy(key, input, v1a!.slice(4))).toBe(true);
      expect(signedBy(key, { ...input, body: '{"a":2}' }, v1a!.slice(4))).toBe(false);
    }
  });

  it("adds v1a after the v1 signatures; v1 verifiers skip it, v1a verifiers need it", () => {
    const secret = generateWebhookSecret();
    const key = parseSigningKey(generateSigningKey());
    const input = { id: "evt_1", timestamp: 1_795_348_800, body: "{}" };
    const header = signPayload({ ...input, secrets: [secret], signingKey: key });
    expect(header).toMatch(/^v1,\S+ v1a,\S+$/);
    const now = new Date(input.timestamp * 1000);
    const headers = { id: input.id, timestamp: String(input.timestamp), signature: header };
    expect(verifySignature({ payload: input.body, headers, secrets: [secret], now }).valid).toBe(true);
    expect(v1aVerifies(key, input, header)).toBe(true);
    expect(v1aVerifies(parseSigningKey(generateSigningKey()), input, header)).toBe(false);
    expect(signPayload({ ...input, secrets: [secret] })).not.toContain("v1a,");
  });

  it.each([
    ["no prefix", RFC_SEED.toString("base64")],
    ["a webhook secret", generateWebhookSecret()],
    ["a short key", `whsk_${RFC_SEED.subarray(0, 16).toString("base64")}`],
    ["a 64-byte key whose public half is not its seed's", `whsk_${Buffer.concat([RFC_SEED, RFC_SEED]).toString("base64")}`],
  ])("refuses %s without quoting it", (_, text) => {
    expect(() => parseSigningKey(text)).toThrow();
    try {
      parseSigningKey(text);
    } catch (error) {
      expect((error as Error).message).not.toContain(text.slice(5, 25));
    }
  });

  it("never shows the private key when logged or serialised", () => {
    const text = generateSigningKey();
    const key = parseSigningKey(text);
    const seed = text.slice("whsk_".length);
    expect(JSON.stringify(key)).not.toContain(seed);
    expect(JSON.stringify(key)).toContain(key.publicKey);
    expect(Object.values(key).join(" ")).not.toContain(seed);
  });
});
