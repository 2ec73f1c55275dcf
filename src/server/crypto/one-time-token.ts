import { createHash, randomBytes } from "node:crypto";

/**
 * Random one-time tokens that travel to a browser (a password reset link, a sign-in's second step) while only
 * their digest is stored. 256 random bits: guessing is hopeless, so a fast hash (SHA-256) suffices where a
 * password needs argon2, and the digest is looked up by a unique index.
 */
export function newOneTimeToken(): string {
  return randomBytes(32).toString("base64url");
}

export function digestToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}
