import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { decodePrefixedBase64 } from "@/lib/base64";
import { jwkThumbprint } from "@/server/keys/thumbprint";

/**
 * Standard Webhooks' optional asymmetric signatures: `v1a,<base64 Ed25519 signature of "id.timestamp.body">`
 * beside the `v1` HMACs in `webhook-signature`, one per signing key of the service (several only while a key
 * is being rotated). Receivers verify them with the public keys (`GET /api/v1/webhook/signing-keys`) and need
 * no shared secret. Opt-in: only when WEBHOOK_SIGNING_KEY is set (docs/webhooks.md).
 */

export const ASYMMETRIC_SIGNATURE_VERSION = "v1a";
/** Standard Webhooks' prefixes for an asymmetric secret key and its public key. */
export const SIGNING_KEY_PREFIX = "whsk_";
export const PUBLIC_KEY_PREFIX = "whpk_";

/** The public half, as a JWK of the service's JWK Set. */
export interface SigningPublicJwk {
  kty: "OKP";
  crv: "Ed25519";
  x: string;
  /** RFC 7638 thumbprint. */
  kid: string;
  use: "sig";
  alg: "EdDSA";
}

/**
 * A parsed signing key. Only the public parts are enumerable, so logging or serialising it (a config dump)
 * shows the public key and never the private one.
 */
export class WebhookSigningKey {
  readonly publicKey: string;
  readonly jwk: SigningPublicJwk;
  readonly #privateKey: KeyObject;

  constructor(privateKey: KeyObject) {
    if (privateKey.asymmetricKeyType !== "ed25519") throw new Error("The webhook signing key must be Ed25519");
    this.#privateKey = privateKey;
    const { x } = createPublicKey(privateKey).export({ format: "jwk" }) as { x: string };
    this.publicKey = PUBLIC_KEY_PREFIX + Buffer.from(x, "base64url").toString("base64");
    this.jwk = { kty: "OKP", crv: "Ed25519", x, kid: jwkThumbprint({ kty: "OKP", crv: "Ed25519", x }), use: "sig", alg: "EdDSA" };
  }

  /** The base64 Ed25519 signature of `content`: the signed content of a webhook, as signing.ts lays it out. */
  sign(content: Buffer): string {
    return sign(null, content, this.#privateKey).toString("base64");
  }
}

/** PKCS#8 DER of an Ed25519 key is this fixed prefix followed by the 32-byte seed (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

/**
 * Reads `whsk_<base64>`: the 32-byte Ed25519 seed, or the 64-byte libsodium form (seed then public key).
 * Errors name the format, never the value.
 */
export function parseSigningKey(text: string): WebhookSigningKey {
  const raw = decodePrefixedBase64(text.trim(), SIGNING_KEY_PREFIX);
  if (raw?.length !== 32 && raw?.length !== 64) {
    throw new Error(`must be ${SIGNING_KEY_PREFIX} followed by the base64 of a 32-byte Ed25519 seed (npm run webhook-signing-key makes one)`);
  }
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, raw.subarray(0, 32)]), format: "der", type: "pkcs8" });
  const key = new WebhookSigningKey(privateKey);
  if (raw.length === 64 && !raw.subarray(32).equals(Buffer.from(key.publicKey.slice(PUBLIC_KEY_PREFIX.length), "base64"))) {
    throw new Error("holds a 64-byte key whose second half is not the public key of its seed");
  }
  return key;
}

/** The current key and the ones being rotated out: enough for a rotation begun before the last one ended. */
export const MAX_SIGNING_KEYS = 3;

/**
 * Reads WEBHOOK_SIGNING_KEY: one or more `whsk_…` keys separated by whitespace and/or commas, the current key
 * first. Every one signs each webhook and is published. Errors name the key by its position, never its value.
 */
export function parseSigningKeys(text: string): readonly WebhookSigningKey[] {
  const entries = text.split(/[\s,]+/).filter((entry) => entry !== "");
  if (entries.length === 0) throw new Error(`must hold a ${SIGNING_KEY_PREFIX} key (npm run webhook-signing-key makes one)`);
  if (entries.length > MAX_SIGNING_KEYS) {
    throw new Error(`holds ${entries.length} keys; at most ${MAX_SIGNING_KEYS} may sign at once (the current key first, then the ones being rotated out)`);
  }
  const keys = entries.map((entry, i) => {
    try {
      return parseSigningKey(entry);
    } catch (error) {
      throw new Error(`key ${i + 1} ${(error as Error).message}`);
    }
  });
  keys.forEach((key, i) => {
    const first = keys.findIndex((other) => other.publicKey === key.publicKey);
    if (first !== i) throw new Error(`key ${i + 1} is the same key as key ${first + 1}`);
  });
  return Object.freeze(keys);
}

/** A fresh `whsk_…` signing key. */
export function generateSigningKey(): string {
  const { privateKey } = generateKeyPairSync("ed25519");
  const der = privateKey.export({ format: "der", type: "pkcs8" });
  return SIGNING_KEY_PREFIX + der.subarray(ED25519_PKCS8_PREFIX.length).toString("base64");
}
