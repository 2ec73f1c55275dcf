import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Opaque, signed keyset cursors for `(created_at, id)` lists, newest first.
 *
 * A cursor is `base64url(JSON position) "." base64url(HMAC-SHA256)`. The MAC covers a `scope` chosen by the
 * list (e.g. `payments:<merchantId>`), so a cursor only works on the list, and for the merchant, that issued
 * it; a tampered or foreign cursor fails verification instead of reaching SQL. `createdAt` is the row's
 * timestamp with microseconds, as text (see db/keyset.ts): a JS Date would drop the microseconds and
 * skip or repeat rows.
 */
export interface KeysetPosition {
  /** ISO 8601 UTC with microseconds: `2026-11-22T12:00:00.123456Z`. */
  createdAt: string;
  id: string;
}

const MAC_BYTES = 16;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z$/;
const ID = /^[a-z]{2,4}_[0-9a-z]{26}$/;

export function signCursor(secret: string, scope: string, position: KeysetPosition): string {
  const payload = Buffer.from(JSON.stringify({ t: position.createdAt, i: position.id })).toString("base64url");
  return `${payload}.${mac(secret, scope, payload).toString("base64url")}`;
}

/** The position inside a cursor, or null when it is malformed, tampered with or from another scope. */
export function verifyCursor(secret: string, scope: string, cursor: string): KeysetPosition | null {
  if (cursor.length > 512) return null;
  const [payload, signature, ...rest] = cursor.split(".");
  if (!payload || !signature || rest.length > 0) return null;
  const given = Buffer.from(signature, "base64url");
  // Only the canonical encoding: base64 ignores a last character's spare bits, a cursor must not.
  if (given.toString("base64url") !== signature) return null;
  const expected = mac(secret, scope, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const decoded = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { t?: unknown; i?: unknown };
    if (typeof decoded.t !== "string" || typeof decoded.i !== "string") return null;
    if (!TIMESTAMP.test(decoded.t) || !ID.test(decoded.i)) return null;
    return { createdAt: decoded.t, id: decoded.i };
  } catch {
    return null;
  }
}

function mac(secret: string, scope: string, payload: string): Buffer {
  // A key derived for cursors only: AUTH_SECRET also keys sessions and the secret box.
  const key = createHmac("sha256", secret).update("mps/cursor/v1").digest();
  return createHmac("sha256", key).update(`${scope}\n${payload}`).digest().subarray(0, MAC_BYTES);
}
