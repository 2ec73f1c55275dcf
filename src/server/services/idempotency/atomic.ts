import { upsertCompletedKey } from "@/server/db/sql/idempotency-keys";
import type { Database, Executor } from "@/server/db/types";
import type { Logger } from "pino";
import { isServiceError, type ServiceError } from "../errors";
import {
  answerOnRecord,
  type Answer,
  FINAL_ERROR_CODES,
  IDEMPOTENCY_TTL_MS,
  keyInUseError,
  storedBody,
  type KeyScope,
} from "./records";

/**
 * Idempotency for routes whose handler only touches the database (`idempotency: { atomic: true }`): the
 * handler and the stored answer share one transaction, so the answer commits if and only if the operation
 * does — no claim to commit first, no lease, nothing to release after a crash, and one commit per request
 * instead of three (BENCHMARKS.md, case 2).
 *
 * The answer row is written last. A concurrent duplicate therefore waits on the first request's row lock
 * (the primary key) instead of being refused with 409, finds the committed answer, rolls its own work back
 * and replays it. A retry of a finished key runs the handler inside the transaction too, is rolled back the
 * same way, and gets the stored answer; a different body gets 422 with nothing written.
 */
export async function runAtomically(
  options: {
    db: Database;
    log: Logger;
    now: Date;
    scope: KeyScope;
    digest: string;
    /** The answer a final error (FINAL_ERROR_CODES) is stored as; undefined: final errors are not stored. */
    finalErrorAnswer?: (error: ServiceError) => Answer;
    /** What of a successful answer's body is stored (run.ts, `IdempotentRun.keep`). */
    keep?: (body: unknown) => unknown;
  },
  execute: (tx: Executor) => Promise<Answer>,
): Promise<Answer> {
  const { db, scope, digest, now } = options;
  try {
    return await db.transaction(async (tx) => {
      const reply = await execute(tx);
      if (reply.status >= 200 && reply.status < 300) {
        const stored = await storeAnswer(tx, scope, digest, now, reply.status, options.keep ? options.keep(reply.body) : reply.body);
        if (!stored) throw new KeyAlreadyAnswered();
      }
      return reply;
    });
  } catch (error) {
    // Whatever happened here, an answer already recorded for this key is the answer.
    const recorded = await answerOnRecord(db, scope, digest, now).catch((lookupError: unknown) => {
      if (isServiceError(lookupError)) throw lookupError;
      throw error;
    });
    if (recorded) return recorded;
    if (error instanceof KeyAlreadyAnswered) throw keyInUseError("A request with this Idempotency-Key just changed state. Retry shortly.");
    if (options.finalErrorAnswer && isServiceError(error) && FINAL_ERROR_CODES.has(error.code)) {
      const answer = options.finalErrorAnswer(error);
      const stored = await storeAnswer(db, scope, digest, now, answer.status, answer.body).catch((storeError: unknown) => {
        options.log.warn({ err: storeError, path: scope.path }, "could not store an idempotent error answer");
        return true;
      });
      if (!stored) {
        // Another request with this key recorded its answer between our rollback and this insert.
        const theirs = await answerOnRecord(db, scope, digest, now);
        if (theirs) return theirs;
      }
    }
    throw error;
  }
}

class KeyAlreadyAnswered extends Error {
  constructor() {
    super("the Idempotency-Key already has a live answer");
  }
}

/**
 * Inserts the completed key, or takes over an expired one (or a leased claim whose lease ran out). Returns
 * false when a live row holds the key: the caller's transaction must then roll back.
 */
function storeAnswer(db: Executor, scope: KeyScope, digest: string, now: Date, status: number, body: unknown): Promise<boolean> {
  // The answer is kept as a JSON string inside jsonb (storedBody).
  return upsertCompletedKey(db, { ...scope, digest, now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS), status, body: storedBody(body) });
}
