import { and, eq } from "drizzle-orm";
import { idempotencyKeys } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import type { ErrorCode } from "../error-codes";
import { ServiceError } from "../errors";

/**
 * What both idempotency modes share: the key's scope, the stored answer and how it is replayed. The answer is
 * the one the caller gave (REST: its status and JSON body), stored and replayed as given.
 */
export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

const PROBLEM_CONTENT_TYPE = "application/problem+json";

type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;

export const REPLAYED_HEADER = "idempotent-replayed";
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

/**
 * Errors that are the operation's final answer for that body, so a retry must see them again rather than
 * run again. Everything else (validation, rate limits, 5xx, refusals that echo input such as
 * private_key_material) releases the key: the client may retry with the same key.
 */
export const FINAL_ERROR_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "not_found",
  "forbidden",
  "invalid_transition",
  "payment_conflict",
  "delivery_not_failed",
  "invoice_not_found",
  "currency_mismatch",
  "invoice_not_payable",
]);

export interface KeyScope {
  merchantId: string;
  method: string;
  path: string;
  key: string;
}

/**
 * The stored `path` of a key: the request's path, preceded by `test ` in test mode, so a test key reusing a live
 * key's Idempotency-Key is a different request and never replays a live answer (docs/test-mode.md). A URL path
 * never holds a space, so no live path can equal a test one.
 */
export function scopedPath(pathname: string, livemode: boolean): string {
  return livemode ? pathname : `test ${pathname}`;
}

export function matchesScope(scope: KeyScope) {
  return and(
    eq(idempotencyKeys.merchantId, scope.merchantId),
    eq(idempotencyKeys.method, scope.method),
    eq(idempotencyKeys.path, scope.path),
    eq(idempotencyKeys.key, scope.key),
  );
}

/** jsonb would reorder an object's keys: the answer is kept as its serialised text inside jsonb. */
export function storedBody(body: unknown): string | null {
  return body === undefined || body === null ? null : JSON.stringify(body);
}

export function replayOf(status: number, stored: unknown): Answer {
  const headers: Record<string, string> = { [REPLAYED_HEADER]: "true" };
  if (status >= 400) headers["content-type"] = PROBLEM_CONTENT_TYPE;
  // Stored as the serialised text (see storedBody), so the replay has the original's key order.
  const body = typeof stored === "string" ? (JSON.parse(stored) as unknown) : (stored ?? undefined);
  return { status, body, headers };
}

export function keyReusedError() {
  return new ServiceError("idempotency_key_reused", "This Idempotency-Key was used with a different request body. Use a new key for a new request.");
}

export function keyInUseError(detail = "A request with this Idempotency-Key is still being processed. Retry shortly.") {
  return new ServiceError("idempotency_key_in_use", detail, { headers: { "retry-after": "1" } });
}

/**
 * What a live key already says about this request: its stored answer (a replay), 422 for another body,
 * 409 while another request holds it; null when the key is free (absent or expired).
 */
export async function answerOnRecord(db: Executor, scope: KeyScope, digest: string, now: Date): Promise<Answer | null> {
  const [row] = await db.select().from(idempotencyKeys).where(matchesScope(scope));
  return row ? answerOf(row, digest, now) : null;
}

/** `answerOnRecord` for a row already read. */
export function answerOf(row: IdempotencyKeyRow, digest: string, now: Date): Answer | null {
  if (row.expiresAt <= now) return null;
  if (row.requestDigest !== digest) throw keyReusedError();
  if (row.state === "completed") return replayOf(row.responseStatus ?? 200, row.responseBody);
  if (row.lockedUntil && row.lockedUntil > now) throw keyInUseError();
  return null;
}
