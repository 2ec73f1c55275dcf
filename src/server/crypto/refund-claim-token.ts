import { createHash, createHmac, hkdfSync } from "node:crypto";

/**
 * The capability in a refund's claim link `/refund/{token}` (docs/refunds.md, "Claim link"). The token is an
 * HMAC of the refund's id under a key derived from AUTH_SECRET: the link can be shown again on every read of the
 * refund without the token being stored, and only its SHA-256 digest is (the claim page's lookup). 256 bits: no
 * one guesses one. All processes must share AUTH_SECRET, as they already must for sessions and sealed secrets;
 * changing it changes every claim link (the old links answer "not found").
 */
const PURPOSE = "refund-claim-token";
let cached: { secret: string; key: Buffer } | undefined;

function keyOf(masterSecret: string): Buffer {
  if (cached?.secret !== masterSecret) {
    cached = { secret: masterSecret, key: Buffer.from(hkdfSync("sha256", masterSecret, "merchant-payments", PURPOSE, 32)) };
  }
  return cached.key;
}

export function refundClaimToken(masterSecret: string, refundId: string): string {
  return createHmac("sha256", keyOf(masterSecret)).update(refundId).digest("base64url");
}

/** What the database keeps of a token, and what the claim page looks it up by. */
export function refundClaimTokenDigest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A token's shape (43 base64url characters): anything else names no refund and costs no query. */
export function looksLikeRefundClaimToken(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}
