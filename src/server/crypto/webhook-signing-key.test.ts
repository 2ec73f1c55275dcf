import { createPublicKey, verify } from "node:crypto";
import { inspect } from "node:util";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { generateSigningKey, MAX_SIGNING_KEYS, parseSigningKey, parseSigningKeys, type WebhookSigningKey } from "./webhook-signing-key";
import { generateWebhookSecret, signatureHeaders, signPayload, verifySignature } from "@/server/webhooks/signing";

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
      const [, v1a] = signPayload({ ...input, body, secrets: [generateWebhookSecret()], signingKeys: [key] }).split(" ");
      expect(signedBy(key, input, v1a!.slice(4))).toBe(true);
      expect(signedBy(key, { ...input, body: '{"a":2}' }, v1a!.slice(4))).toBe(false);
    }
  });

  it("adds v1a after the v1 signatures; v1 verifiers skip it, v1a verifiers need it", () => {
    const secret = generateWebhookSecret();
    const key = parseSigningKey(generateSigningKey());
    const input = { id: "evt_1", timestamp: 1_795_348_800, body: "{}" };
    const header = signPayload({ ...input, secrets: [secret], signingKeys: [key] });
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

  it("never shows the private keys of the configured list either (JSON, inspect)", () => {
    const texts = [generateSigningKey(), generateSigningKey()];
    const keys = parseSigningKeys(texts.join(" "));
    for (const seed of texts.map((text) => text.slice("whsk_".length))) {
      expect(JSON.stringify(keys)).not.toContain(seed);
      expect(inspect(keys, { depth: 5, showHidden: true })).not.toContain(seed);
    }
    expect(JSON.stringify(keys)).toContain(keys[1]!.publicKey);
  });
});

describe("key rotation: several signing keys", () => {
  const input = { id: "evt_1", timestamp: 1_795_348_800, body: '{"type":"payment.confirmed"}' };
  const current = generateSigningKey();
  const previous = generateSigningKey();

  it("signs with every key, one v1a entry each, in configured order after the v1 entries", () => {
    const secrets = [generateWebhookSecret(), generateWebhookSecret()];
    const keys = parseSigningKeys(`${current} ${previous}`);
    expect(keys.map((key) => key.publicKey)).toEqual([parseSigningKey(current).publicKey, parseSigningKey(previous).publicKey]);
    const header = signPayload({ ...input, secrets, signingKeys: keys });
    const entries = header.split(" ");
    expect(entries.map((entry) => entry.slice(0, entry.indexOf(",")))).toEqual(["v1", "v1", "v1a", "v1a"]);
    // Each entry is its own key's signature: a receiver pinned to either public key finds one that verifies.
    expect(signedBy(keys[0]!, input, entries[2]!.slice(4))).toBe(true);
    expect(signedBy(keys[1]!, input, entries[3]!.slice(4))).toBe(true);
    expect(signedBy(keys[0]!, input, entries[3]!.slice(4))).toBe(false);
    expect(v1aVerifies(parseSigningKey(previous), input, header)).toBe(true);
    expect(v1aVerifies(parseSigningKey(generateSigningKey()), input, header)).toBe(false);
    // The v1 side is untouched: either secret still verifies, with the official library and with ours.
    const headers = signatureHeaders({ ...input, timestamp: Math.floor(Date.now() / 1000), secrets, signingKeys: keys });
    for (const secret of secrets) expect(new Webhook(secret).verify(input.body, headers)).toEqual(JSON.parse(input.body));
    const now = new Date(input.timestamp * 1000);
    const received = { id: input.id, timestamp: String(input.timestamp), signature: header };
    expect(verifySignature({ payload: input.body, headers: received, secrets: [secrets[1]!], now }).valid).toBe(true);
  });

  it("reads the single-key form as before: one key, one v1a entry", () => {
    const keys = parseSigningKeys(current);
    expect(keys).toHaveLength(1);
    expect(keys[0]!.publicKey).toBe(parseSigningKey(current).publicKey);
    expect(signPayload({ ...input, secrets: [generateWebhookSecret()], signingKeys: keys })).toMatch(/^v1,\S+ v1a,\S+$/);
  });

  it.each([
    ["a space", " "],
    ["a comma", ","],
    ["a comma and a space", ", "],
    ["a newline", "\n"],
    ["spaces, tabs, newlines and commas", " ,\n\t "],
  ])("accepts keys separated by %s", (_, separator) => {
    const keys = parseSigningKeys(`\n ${current}${separator}${previous}, `);
    expect(keys.map((key) => key.jwk.kid)).toEqual([parseSigningKey(current).jwk.kid, parseSigningKey(previous).jwk.kid]);
  });

  it("refuses the same key twice, also when written in its 64-byte form", () => {
    const seed = Buffer.from(current.slice("whsk_".length), "base64");
    const publicKey = Buffer.from(parseSigningKey(current).publicKey.slice("whpk_".length), "base64");
    const long = `whsk_${Buffer.concat([seed, publicKey]).toString("base64")}`;
    for (const text of [`${current} ${current}`, `${current} ${previous} ${long}`]) {
      expect(() => parseSigningKeys(text)).toThrow(/key \d is the same key as key 1/);
    }
  });

  it(`refuses more than ${MAX_SIGNING_KEYS} keys`, () => {
    const texts = Array.from({ length: MAX_SIGNING_KEYS + 1 }, generateSigningKey);
    expect(parseSigningKeys(texts.slice(0, MAX_SIGNING_KEYS).join(" "))).toHaveLength(MAX_SIGNING_KEYS);
    expect(() => parseSigningKeys(texts.join(" "))).toThrow(`at most ${MAX_SIGNING_KEYS}`);
  });

  it.each([
    ["a webhook secret", generateWebhookSecret()],
    ["a truncated key", generateSigningKey().slice(0, 30)],
    ["a public key", parseSigningKey(generateSigningKey()).publicKey],
  ])("refuses %s in second place, naming its position and the format, never its value", (_, bad) => {
    let message = "";
    try {
      parseSigningKeys(`${current},${bad}`);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^key 2 must be whsk_ followed by the base64 of a 32-byte Ed25519 seed/);
    expect(message).not.toContain(bad.slice(6, 26));
    expect(message).not.toContain(current.slice(5, 25));
  });
});
