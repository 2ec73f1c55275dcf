/**
 * Whether an error means "the database cannot be reached right now" rather than "this query is wrong": the
 * connection closed or was refused, connecting timed out, or PostgreSQL is shutting down or full. The REST
 * pipeline answers these with 503 and Retry-After (docs/decisions.md, "When the database goes away"), so a
 * client retries instead of reporting a bug. Looks through drizzle's wrapping (`cause`).
 */
/** What a 503 for an unreachable database tells the client to wait: reconnecting takes well under that. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

const DRIVER_CODES = new Set([
  // postgres.js
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  "CONNECT_TIMEOUT",
  // Node's socket errors
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
]);

/** SQLSTATEs: class 08 (connection exception), 57P01–57P03 (shutting down, cannot connect now), 53300 (too many connections). */
const UNAVAILABLE_STATE = /^(08...|57P0[123]|53300)$/;

export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === "object" && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (DRIVER_CODES.has(code) || UNAVAILABLE_STATE.test(code))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
