import { createPublicKey, type JsonWebKey } from "node:crypto";
import { toParsedPublicKey } from "./key-object";
import { isEncodedPrivateKeyDer } from "./private-der";
import { KeyRefusal } from "./refusal";
import { containsPrivatePemLabel } from "./secrets";
import type { ParsedPublicKey } from "./types";

/** RFC 7518 §6.3.2 / §6.2.2 / RFC 8037 private members, and `k`, the secret of an `oct` key (§6.4.1). */
export const PRIVATE_JWK_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"] as const;

const OKP_CURVES: readonly string[] = ["Ed25519", "X25519"];
const EC_CURVES: readonly string[] = ["P-256", "P-384", "secp256k1"];

/** Nesting beyond this is not a JWK; it also bounds the scan below on hostile input. */
const MAX_DEPTH = 8;

/**
 * Reads a submitted JWK. Private or symmetric material is looked for everywhere in the value first — also
 * nested (a JWKS sent as one key, `oth`) and inside string members (a PEM private key pasted into `x5c` or a
 * custom member) — so it is refused as such even when the rest would not have parsed. Only the public members
 * are then handed to node:crypto.
 */
export function parseJwk(value: unknown): ParsedPublicKey {
  if (!isPlainObject(value)) throw new KeyRefusal("unsupported_format");
  assertNoJwkSecrets(value);
  if ("keys" in value) throw new KeyRefusal("multiple_keys");

  const input = publicMembers(value);
  let key;
  try {
    key = createPublicKey({ key: input, format: "jwk" });
  } catch {
    // node:crypto's message can quote the input (`Received 'oct'`): never pass it on.
    throw new KeyRefusal("malformed");
  }
  return toParsedPublicKey(key);
}

/** Throws the private-material refusal if any part of a JSON value holds private or symmetric key material. */
export function assertNoJwkSecrets(value: unknown): void {
  scanForSecrets(value, 0);
}

function scanForSecrets(value: unknown, depth: number): void {
  if (depth > MAX_DEPTH) throw new KeyRefusal("unsupported_format");
  const secret = secretAt(value);
  if (secret) throw new KeyRefusal(secret);
  if (typeof value === "object" && value !== null) for (const item of Object.values(value)) scanForSecrets(item, depth + 1);
}

/**
 * Whether this one JSON node (not its children) is private or symmetric material: a string holding a PEM
 * private block or a private key's DER in base64 without armour, a `kty: "oct"` key, or an object with a JWK
 * private member. The reason, or null.
 */
export function secretAt(
  value: unknown,
): "private_pem_block" | "encoded_private_key" | "symmetric_jwk" | "private_jwk_member" | null {
  if (typeof value === "string") {
    if (containsPrivatePemLabel(value)) return "private_pem_block";
    return isEncodedPrivateKeyDer(value) ? "encoded_private_key" : null;
  }
  if (!isPlainObject(value)) return null;
  if (typeof value.kty === "string" && value.kty.toLowerCase() === "oct") return "symmetric_jwk";
  if (PRIVATE_JWK_MEMBERS.some((name) => Object.hasOwn(value, name))) return "private_jwk_member";
  return null;
}

/** kty-specific public members only; `kid`, `use`, `alg`, `x5c`… are not ours to keep from here. */
function publicMembers(jwk: Record<string, unknown>): JsonWebKey {
  const pick = (...names: string[]) =>
    Object.fromEntries(names.filter((name) => Object.hasOwn(jwk, name)).map((name) => [name, jwk[name]]));
  switch (jwk.kty) {
    case "OKP":
      if (!OKP_CURVES.includes(jwk.crv as string)) throw new KeyRefusal("unsupported_curve");
      return pick("kty", "crv", "x");
    case "EC":
      if (!EC_CURVES.includes(jwk.crv as string)) throw new KeyRefusal("unsupported_curve");
      return pick("kty", "crv", "x", "y");
    case "RSA":
      return pick("kty", "n", "e");
    default:
      throw new KeyRefusal("unsupported_type");
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
