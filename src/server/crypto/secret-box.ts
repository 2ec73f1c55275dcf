import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * AES-256-GCM for secrets we must read back (webhook signing secrets), with a key derived from AUTH_SECRET
 * per purpose (HKDF), so a database dump alone does not reveal them. Format: `v1.<iv>.<tag>.<ciphertext>`.
 */
// The webhook worker opens a secret per delivery: derive each key once, not per call.
const derivedKeys = new Map<string, Buffer>();

function deriveKey(masterSecret: string, purpose: string): Buffer {
  const id = `${purpose}\u0000${masterSecret}`;
  let key = derivedKeys.get(id);
  if (!key) {
    if (derivedKeys.size >= 16) derivedKeys.clear(); // a process has one secret; tests may use a few
    key = Buffer.from(hkdfSync("sha256", masterSecret, "merchant-payments", purpose, 32));
    derivedKeys.set(id, key);
  }
  return key;
}

export function sealSecret(masterSecret: string, purpose: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", deriveKey(masterSecret, purpose), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

export function openSecret(masterSecret: string, purpose: string, sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || ciphertext === undefined) throw new Error("Unrecognised sealed secret");
  const decipher = createDecipheriv("aes-256-gcm", deriveKey(masterSecret, purpose), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}

export const WEBHOOK_SECRET_PURPOSE = "webhook-signing-secret";
