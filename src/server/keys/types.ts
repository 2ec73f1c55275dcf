/** The public keys we publish, by the name merchants know them by. */
export const SUPPORTED_KEY_TYPES = ["Ed25519", "X25519", "P-256", "P-384", "secp256k1", "RSA"] as const;
export type SupportedKeyType = (typeof SUPPORTED_KEY_TYPES)[number];

export type KeyUse = "sig" | "enc";

/** Canonical public JWKs: exactly the members RFC 7517/7518/8037 define for the public key, nothing else. */
export type OkpPublicJwk = { kty: "OKP"; crv: "Ed25519" | "X25519"; x: string };
export type EcPublicJwk = { kty: "EC"; crv: "P-256" | "P-384" | "secp256k1"; x: string; y: string };
export type RsaPublicJwk = { kty: "RSA"; n: string; e: string };
export type PublicJwk = OkpPublicJwk | EcPublicJwk | RsaPublicJwk;

export interface ParsedPublicKey {
  keyType: SupportedKeyType;
  jwk: PublicJwk;
  /** RFC 7638 thumbprint (SHA-256, base64url): the default `kid`. */
  thumbprint: string;
}

/**
 * Ed25519 only signs and X25519 only agrees keys, so each has one `use`; EC and RSA keys can do either
 * (RFC 7517 §4.2 leaves the choice to the publisher).
 */
export const ALLOWED_USES: Record<SupportedKeyType, readonly KeyUse[]> = {
  Ed25519: ["sig"],
  X25519: ["enc"],
  "P-256": ["sig", "enc"],
  "P-384": ["sig", "enc"],
  secp256k1: ["sig", "enc"],
  RSA: ["sig", "enc"],
};
