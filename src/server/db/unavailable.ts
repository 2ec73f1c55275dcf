/**
 * Whether an error means "the database cannot be reached right now" rather than "this query is wrong": the
 * connection closed or was refused, connecting (or waiting for a pooled connection) timed out, or PostgreSQL is
 * shutting down or full. The REST pipeline answers these with 503 and Retry-After (docs/decisions.md, "When the
 * database goes away"), so a client retries instead of reporting a bug. Looks through drizzle's wrapping (`cause`).
 */
/** What a 503 for an unreachable database tells the client to wait: reconnecting takes well under that. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** Node's socket errors. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH"]);

/**
 * node-postgres (pg, pg-pool) reports a lost or unobtainable connection by message only, with no code. Pinned by
 * the server-only tests that cut connections (connection-reset, pool-recovery, pool-timeouts).
 */
const DRIVER_MESSAGES = new Set([
  "Connection terminated unexpectedly",
  "Connection terminated",
  "Connection terminated due to connection timeout",
  "timeout expired",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error and is not queryable",
  "Client was closed and is not queryable",
  "Cannot use a pool after calling end on the pool",
]);

/** SQLSTATEs: class 08 (connection exception), 57P01–57P03 (shutting down, cannot connect now), 53300 (too many connections). */
const UNAVAILABLE_STATE = /^(08...|57P0[123]|53300)$/;

export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === "object" && depth < 4; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === "string" && (SOCKET_CODES.has(code) || UNAVAILABLE_STATE.test(code))) return true;
    if (typeof code !== "string" && typeof message === "string" && DRIVER_MESSAGES.has(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
