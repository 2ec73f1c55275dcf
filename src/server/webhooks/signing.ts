import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { decodePrefixedBase64, isBase64 } from "@/lib/base64";
import { ASYMMETRIC_SIGNATURE_VERSION, type WebhookSigningKey } from "@/server/crypto/webhook-signing-key";

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): HMAC-SHA256 over "id.timestamp.body",
 * sent as `webhook-signature: v1,<base64>`, one entry per valid secret (space-separated), so a receiver
 * still holding the previous secret keeps verifying during a rotation. Receivers using the official
 * `standardwebhooks` or `svix` libraries verify these unchanged. With the service's signing keys configured,
 * a `v1a` Ed25519 signature per key follows them (crypto/webhook-signing-key.ts); verifiers of `v1` skip those, as the spec asks.
 */

export const SECRET_PREFIX = "whsec_";
export const SIGNATURE_VERSION = "v1";
/** ±5 minutes, as Standard Webhooks recommends. */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;
const SECRET_BYTES = 32;

/** A fresh signing secret: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString("base64");
}

/** The HMAC key inside a `whsec_…` secret; throws on anything else (a bug, never user input). */
export function secretKey(secret: string): Buffer {
  const key = decodePrefixedBase64(secret, SECRET_PREFIX);
  if (!key) throw new Error("Malformed webhook secret");
  return key;
}

/** What every signature signs is "id.timestamp.body"; this is the part before the body. */
function signedPrefix(id: string, timestamp: number): string {
  return `${id}.${timestamp}.`;
}

function hmac(key: Buffer, id: string, timestamp: number, body: string | Buffer): Buffer {
  return createHmac("sha256", key).update(signedPrefix(id, timestamp)).update(body).digest();
}

export interface SignInput {
  /** The `webhook-id`: the event id, the same on every retry. */
  id: string;
  /** Unix seconds of this attempt (`webhook-timestamp`). */
  timestamp: number;
  /** The exact bytes sent as the request body. */
  body: string | Buffer;
  /** Current secret first, then any previous one still within its rotation window. */
  secrets: readonly string[];
  /** The service's Ed25519 keys (WEBHOOK_SIGNING_KEY), current first, when configured: each adds a `v1a` signature. */
  signingKeys?: readonly WebhookSigningKey[];
}

/** The `webhook-signature` header value: `v1,<sig>` for each secret, then `v1a,<sig>` for each signing key. */
export function signPayload({ id, timestamp, body, secrets, signingKeys = [] }: SignInput): string {
  if (secrets.length === 0) throw new Error("No webhook secret to sign with");
  const signatures = secrets.map((secret) => `${SIGNATURE_VERSION},${hmac(secretKey(secret), id, timestamp, body).toString("base64")}`);
  if (signingKeys.length > 0) {
    // Ed25519 cannot be streamed like the HMAC: the content is laid out once, for every key.
    const content = Buffer.concat([Buffer.from(signedPrefix(id, timestamp)), typeof body === "string" ? Buffer.from(body) : body]);
    for (const key of signingKeys) signatures.push(`${ASYMMETRIC_SIGNATURE_VERSION},${key.sign(content)}`);
  }
  return signatures.join(" ");
}

/** The three headers of a signed delivery, as sent and as a receiver reads them. */
export function signatureHeaders(input: SignInput): Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string> {
  return {
    "webhook-id": input.id,
    "webhook-timestamp": String(input.timestamp),
    "webhook-signature": signPayload(input),
  };
}

export const VERIFY_REASONS = ["malformed_headers", "timestamp_outside_tolerance", "signature_mismatch"] as const;
export type VerifyReason = (typeof VERIFY_REASONS)[number];

export interface VerifyInput {
  payload: string | Buffer;
  headers: { id?: string | null; timestamp?: string | null; signature?: string | null };
  secrets: readonly string[];
  now: Date;
  toleranceSeconds?: number;
}

export type VerifyResult =
  | { valid: true; reason: null; eventId: string; timestamp: Date }
  | { valid: false; reason: VerifyReason; eventId: string | null; timestamp: Date | null };

const MAX_ID_LENGTH = 255;

/**
 * Checks a received webhook: well-formed headers, a timestamp within the window (rejects replays of old
 * captures), and an HMAC matching one of `secrets`, compared in constant time.
 */
export function verifySignature(input: VerifyInput): VerifyResult {
  const id = input.headers.id ?? "";
  const timestampText = input.headers.timestamp ?? "";
  const signatureText = input.headers.signature ?? "";
  const eventId = id === "" ? null : id;

  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  const wellFormedId = id !== "" && id.length <= MAX_ID_LENGTH && !/[\s\x00-\x1f]/.test(id);
  const timestampSeconds = /^\d{1,10}$/.test(timestampText) ? Number(timestampText) : null;
  const candidates = parseSignatureHeader(signatureText);
  if (!wellFormedId || timestampSeconds === null || candidates === null) {
    return {
      valid: false,
      reason: "malformed_headers",
      eventId,
      timestamp: timestampSeconds === null ? null : new Date(timestampSeconds * 1000),
    };
  }
  const timestamp = new Date(timestampSeconds * 1000);

  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor(input.now.getTime() / 1000);
  if (Math.abs(nowSeconds - timestampSeconds) > tolerance) {
    return { valid: false, reason: "timestamp_outside_tolerance", eventId, timestamp };
  }

  for (const secret of input.secrets) {
    const expected = hmac(secretKey(secret), id, timestampSeconds, input.payload);
    for (const candidate of candidates) {
      if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) {
        return { valid: true, reason: null, eventId: id, timestamp };
      }
    }
  }
  return { valid: false, reason: "signature_mismatch", eventId, timestamp };
}

/**
 * The decoded `v1` signatures of a `webhook-signature` header; null when the header is not a
 * space-separated list of `version,base64` entries with at least one `v1`. Other versions
 * (e.g. `v1a`, asymmetric) are skipped, as the spec asks.
 */
function parseSignatureHeader(header: string): Buffer[] | null {
  const entries = header.trim().split(/ +/);
  if (header.trim() === "" || entries.length > 20) return null;
  const signatures: Buffer[] = [];
  for (const entry of entries) {
    const comma = entry.indexOf(",");
    if (comma <= 0) return null;
    const version = entry.slice(0, comma);
    const value = entry.slice(comma + 1);
    if (!isBase64(value) || value === "") return null;
    if (version === SIGNATURE_VERSION) signatures.push(Buffer.from(value, "base64"));
  }
  return signatures.length > 0 ? signatures : null;
}
