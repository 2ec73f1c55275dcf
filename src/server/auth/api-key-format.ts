import { createHash, randomBytes } from "node:crypto";

/**
 * API keys: `sk_live_` + 43 base62 characters (32 random bytes) + a 6-character base62 CRC32 checksum.
 * The prefix lets secret scanners recognise a leaked key; the checksum lets a mistyped or made-up key be
 * refused without a database query. Only the SHA-256 digest is stored.
 */
export const API_KEY_PREFIX = "sk_live_";
const BODY_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);

function toBase62(value: bigint, length: number): string {
  let out = "";
  let rest = value;
  for (let i = 0; i < length; i++) {
    out = ALPHABET[Number(rest % 62n)] + out;
    rest /= 62n;
  }
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, "utf8")) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function checksum(body: string): string {
  return toBase62(BigInt(crc32(API_KEY_PREFIX + body)), CHECKSUM_LENGTH);
}

export function generateApiKey(): string {
  const body = toBase62(BigInt("0x" + randomBytes(32).toString("hex")), BODY_LENGTH);
  return API_KEY_PREFIX + body + checksum(body);
}

/** Shape and checksum only: no database involved. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + BODY_LENGTH);
  return key.slice(-CHECKSUM_LENGTH) === checksum(body);
}

export function apiKeyDigest(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function apiKeyHint(key: string): string {
  return "…" + key.slice(-4);
}
