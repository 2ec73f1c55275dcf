import { and, eq, isNull } from "drizzle-orm";
import { idempotencyKeys } from "@/server/db/schema";
import type { Database, Executor } from "@/server/db/types";
import type { Logger } from "pino";
import { isServiceError, type ServiceError } from "../errors";
import { runAtomically } from "./atomic";
import {
  answerOf,
  FINAL_ERROR_CODES,
  IDEMPOTENCY_TTL_MS,
  keyInUseError,
  matchesScope,
  storedBody,
  type Answer,
  type KeyScope,
} from "./records";

/**
 * Idempotency-Key (Stripe's semantics, decisions in docs/idempotency.md): it wraps the operation, which runs
 * as a service owning its transaction.
 *
 * Two modes. Operations that only touch the database run atomically (`atomic.ts`): this opens the transaction,
 * hands it to the operation (whose own `withTransaction` joins it) and stores the answer in it. The others
 * (they call out over the network, e.g. a test webhook) claim the key first: a committed `in_progress` row
 * under a lease, so a concurrent duplicate sees the claim and gets 409 idempotency_key_in_use; when the
 * operation ends its answer is stored (2xx and final 4xx) or the claim released (anything a retry could
 * change), and a crashed request's claim expires with its lease. A finished key expires after 24 h. Only a
 * SHA-256 digest of the canonical request is kept, never the request.
 */

/** Longer than any request may run (webhook test sends time out at 15 s); a crashed claim frees after this. */
export const IDEMPOTENCY_LEASE_MS = 60_000;

export type IdempotencyPolicy = { store: "final" | "success"; atomic?: boolean };

export interface IdempotentRun {
  db: Database;
  log: Logger;
  now: Date;
  scope: KeyScope;
  /** SHA-256 of the canonical request: another request under the same key is refused. */
  digest: string;
  policy: IdempotencyPolicy;
  /** The answer a final error is stored and replayed as (REST: its problem+json). */
  errorAnswer: (error: ServiceError) => Answer;
  /**
   * What of a successful answer's body is stored and replayed (default: all of it). An answer that shows a
   * secret once keeps the rest of itself: a duplicate submission learns what was made, never the secret again.
   */
  keep?: (body: unknown) => unknown;
}

/** Runs `execute` at most once per key scope and digest; replays its stored answer after. */
export async function runIdempotently(run: IdempotentRun, execute: (tx?: Executor) => Promise<Answer>): Promise<Answer> {
  const { db, log, now, scope, digest, policy } = run;
  const storeFinal = policy.store === "final";

  if ("atomic" in policy && policy.atomic) {
    return runAtomically({ db, log, now, scope, digest, finalErrorAnswer: storeFinal ? run.errorAnswer : undefined, keep: run.keep }, execute);
  }

  const claim = await claimKey(db, scope, digest, now);
  if (claim.kind === "replay") return claim.answer;

  let answer: Answer;
  try {
    answer = await execute();
  } catch (error) {
    if (storeFinal && isServiceError(error) && FINAL_ERROR_CODES.has(error.code)) {
      const stored = run.errorAnswer(error);
      await completeKey(db, log, scope, claim.lockedUntil, stored.status, stored.body);
    } else {
      await releaseKey(db, log, scope, claim.lockedUntil);
    }
    throw error;
  }
  if (answer.status >= 200 && answer.status < 300) {
    await completeKey(db, log, scope, claim.lockedUntil, answer.status, run.keep ? run.keep(answer.body) : (answer.body ?? null));
  } else {
    await releaseKey(db, log, scope, claim.lockedUntil);
  }
  return answer;
}

type Claim = { kind: "owned"; lockedUntil: Date } | { kind: "replay"; answer: Answer };

async function claimKey(db: Database, scope: KeyScope, digest: string, now: Date): Promise<Claim> {
  const lockedUntil = new Date(now.getTime() + IDEMPOTENCY_LEASE_MS);
  const fresh = { requestDigest: digest, state: "in_progress" as const, lockedUntil, responseStatus: null, responseBody: null, createdAt: now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) };
  // A few rounds: between our insert and our read the row may be released or taken over by another request.
  for (let round = 0; round < 3; round++) {
    const [inserted] = await db
      .insert(idempotencyKeys)
      .values({ ...scope, ...fresh })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted) return { kind: "owned", lockedUntil };

    const [row] = await db.select().from(idempotencyKeys).where(matchesScope(scope));
    if (!row) continue;
    const recorded = answerOf(row, digest, now);
    if (recorded) return { kind: "replay", answer: recorded };
    // Expired, or claimed by a request whose lease ran out (its process died): take it over, unless
    // someone else just did (the UPDATE matches only the version we read).
    const [taken] = await db
      .update(idempotencyKeys)
      .set(fresh)
      .where(
        and(
          matchesScope(scope),
          eq(idempotencyKeys.state, row.state),
          eq(idempotencyKeys.expiresAt, row.expiresAt),
          row.lockedUntil ? eq(idempotencyKeys.lockedUntil, row.lockedUntil) : isNull(idempotencyKeys.lockedUntil),
        ),
      )
      .returning({ key: idempotencyKeys.key });
    if (taken) return { kind: "owned", lockedUntil };
  }
  throw keyInUseError("A request with this Idempotency-Key is being processed. Retry shortly.");
}

/**
 * Stores the answer, but only while the claim is still ours (`lockedUntil` is the fencing token). A failure
 * to store must not turn a done operation into an error: the claim then expires with its lease.
 */
async function completeKey(db: Database, log: Logger, scope: KeyScope, lockedUntil: Date, status: number, body: unknown) {
  try {
    const stored = await db
      .update(idempotencyKeys)
      .set({ state: "completed", responseStatus: status, responseBody: storedBody(body), lockedUntil: null })
      .where(and(matchesScope(scope), eq(idempotencyKeys.state, "in_progress"), eq(idempotencyKeys.lockedUntil, lockedUntil)))
      .returning({ key: idempotencyKeys.key });
    if (stored.length === 0) log.warn({ path: scope.path }, "idempotency claim was taken over before the response was stored");
  } catch (error) {
    log.warn({ err: error, path: scope.path }, "could not store an idempotent response; its claim will expire");
  }
}

/** Frees the key for a retry. A failure here must not mask the handler's own error: the lease frees it later. */
async function releaseKey(db: Database, log: Logger, scope: KeyScope, lockedUntil: Date) {
  try {
    await db
      .delete(idempotencyKeys)
      .where(and(matchesScope(scope), eq(idempotencyKeys.state, "in_progress"), eq(idempotencyKeys.lockedUntil, lockedUntil)));
  } catch (error) {
    log.warn({ err: error, path: scope.path }, "could not release an idempotency claim; its lease will expire");
  }
}

