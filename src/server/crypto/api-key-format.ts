import { createHash, randomBytes } from "node:crypto";

/**
 * API keys: `sk_live_` (or `sk_test_` for test mode, docs/test-mode.md; `rk_live_`/`rk_test_` for a restricted key,
 * docs/team-and-security.md) + 43 base62 characters (32 random bytes) + a 6-character base62 CRC32 checksum of
 * prefix and body. The prefix lets secret scanners recognise a leaked key and people tell the modes and kinds
 * apart; the checksum lets a mistyped or made-up key be refused without a database query. Only the SHA-256 digest
 * is stored, and the stored key row, not the prefix, decides the mode and the scopes.
 */
export const API_KEY_PREFIX = "sk_live_";
export const TEST_API_KEY_PREFIX = "sk_test_";
export const RESTRICTED_API_KEY_PREFIX = "rk_live_";
export const RESTRICTED_TEST_API_KEY_PREFIX = "rk_test_";
const PREFIX_LENGTH = API_KEY_PREFIX.length;
const BODY_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_PATTERN = new RegExp(`^[sr]k_(?:live|test)_[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);

/** The prefix of a key of this mode, restricted (`rk_`) or not (`sk_`). */
export function apiKeyPrefix(livemode: boolean, restricted = false): string {
  if (restricted) return livemode ? RESTRICTED_API_KEY_PREFIX : RESTRICTED_TEST_API_KEY_PREFIX;
  return livemode ? API_KEY_PREFIX : TEST_API_KEY_PREFIX;
}

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

function checksum(prefix: string, body: string): string {
  return toBase62(BigInt(crc32(prefix + body)), CHECKSUM_LENGTH);
}

/** A new key: live unless `livemode` is false; `rk_` when `restricted`. */
export function generateApiKey(livemode = true, restricted = false): string {
  const prefix = apiKeyPrefix(livemode, restricted);
  const body = toBase62(BigInt("0x" + randomBytes(32).toString("hex")), BODY_LENGTH);
  return prefix + body + checksum(prefix, body);
}

/**
 * Shape and checksum only: no database involved. A live key with its prefix changed to `sk_test_` (or an `rk_` key's
 * to `sk_`) fails the checksum.
 */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(PREFIX_LENGTH, PREFIX_LENGTH + BODY_LENGTH);
  return key.slice(-CHECKSUM_LENGTH) === checksum(key.slice(0, PREFIX_LENGTH), body);
}

export function apiKeyDigest(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function apiKeyHint(key: string): string {
  return "…" + key.slice(-4);
}
