/**
 * Why a submitted key was refused. Each reason maps to one stable error code:
 * - `private_key_material` — the submission is, contains, or may be private or symmetric material. The caller
 *   must treat that secret as exposed; we never keep, log or echo it.
 * - `unsupported_key` — public, but not something we publish: certificates (we would be vouching for a chain we
 *   do not verify; send the SPKI `PUBLIC KEY` instead), weak RSA, other curves/types, malformed input.
 * - `key_too_large` — a single key over the per-key size limit (read before any parsing).
 *
 * The detail text is fixed per reason, so a refusal can never carry the submitted text, not even through a
 * wrapped `node:crypto` error message (those can quote input): we never chain a cause.
 */
export const KEY_REFUSALS = {
  private_pem_block: {
    code: "private_key_material",
    detail: "The text contains a PEM private key block. Send only the public key; treat this private key as exposed.",
  },
  private_der: {
    code: "private_key_material",
    detail: "The PEM block holds a private key. Send only the public key; treat this private key as exposed.",
  },
  encoded_private_key: {
    code: "private_key_material",
    detail: "The text is a private key (PKCS#8, PKCS#1 or SEC1 bytes in base64). Send only the public key; treat this private key as exposed.",
  },
  private_marker: {
    code: "private_key_material",
    detail: "The text looks like private key material. Send only the public key; treat this key as exposed.",
  },
  private_jwk_member: {
    code: "private_key_material",
    detail: "The JWK has private key members. Send only the public members; treat this private key as exposed.",
  },
  symmetric_jwk: {
    code: "private_key_material",
    detail: "Symmetric (kty \"oct\") keys are secrets and are never published; treat this key as exposed.",
  },
  raw_secret: {
    code: "private_key_material",
    detail:
      "Bare key material (hex, base64, base58 or a seed phrase) may be a secret and is refused. Send a JWK or a PEM PUBLIC KEY; if this was a secret, treat it as exposed.",
  },
  certificate: {
    code: "unsupported_key",
    detail: "Certificates are not accepted. Send the public key as a PEM PUBLIC KEY (SPKI) block or a JWK.",
  },
  weak_rsa: { code: "unsupported_key", detail: "RSA keys must have a modulus of at least 2048 bits." },
  unsupported_curve: {
    code: "unsupported_key",
    detail: "Unsupported curve. Supported: Ed25519, X25519, P-256, P-384, secp256k1.",
  },
  unsupported_type: {
    code: "unsupported_key",
    detail: "Unsupported key type. Supported: Ed25519, X25519, P-256, P-384, secp256k1 and RSA (≥ 2048 bits).",
  },
  unsupported_format: {
    code: "unsupported_key",
    detail: "Send the key as a JWK object or as a PEM PUBLIC KEY (SPKI) block, and nothing else in the text.",
  },
  multiple_keys: { code: "unsupported_key", detail: "Send one key per entry." },
  malformed: { code: "unsupported_key", detail: "The key could not be read as a valid public key." },
  use_mismatch: { code: "unsupported_key", detail: "This key type cannot be used for the requested `use`." },
  too_large: { code: "key_too_large", detail: "A key may be at most 16 KiB." },
} as const satisfies Record<string, { code: KeyRefusalCode; detail: string }>;

export type KeyRefusalCode = "private_key_material" | "unsupported_key" | "key_too_large";
export type KeyRefusalReason = keyof typeof KEY_REFUSALS;

export class KeyRefusal extends Error {
  readonly code: KeyRefusalCode;

  constructor(readonly reason: KeyRefusalReason) {
    super(KEY_REFUSALS[reason].detail);
    this.name = "KeyRefusal";
    this.code = KEY_REFUSALS[reason].code;
  }
}

export function isKeyRefusal(error: unknown): error is KeyRefusal {
  return error instanceof KeyRefusal;
}
