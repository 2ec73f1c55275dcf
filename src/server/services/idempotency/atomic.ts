import { sql } from "drizzle-orm";
import { rowsOf } from "@/server/db/rows";
import { idempotencyKeys } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import type { Database } from "@/server/db/types";
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
  },
  execute: (tx: Executor) => Promise<Answer>,
): Promise<Answer> {
  const { db, scope, digest, now } = options;
  try {
    return await db.transaction(async (tx) => {
      const reply = await execute(tx);
      if (reply.status >= 200 && reply.status < 300) {
        const stored = await storeAnswer(tx, scope, digest, now, reply.status, reply.body);
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
 *
 * Hand-written: it runs on every idempotent confirm, and drizzle's insert builder costs several times more
 * CPU to build this statement than PostgreSQL spends running it (BENCHMARKS.md, case 2).
 */
async function storeAnswer(db: Executor, scope: KeyScope, digest: string, now: Date, status: number, body: unknown): Promise<boolean> {
  const at = now.toISOString();
  const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString();
  // The answer is kept as a JSON string inside jsonb (storedBody): encode that string once more for jsonb.
  const stored = storedBody(body);
  const result = await db.execute(sql`
    insert into ${idempotencyKeys} as k
      (merchant_id, method, path, key, request_digest, state, locked_until, response_status, response_body, created_at, expires_at)
    values (${scope.merchantId}, ${scope.method}, ${scope.path}, ${scope.key}, ${digest}, 'completed', null, ${status}::int,
      ${stored === null ? null : JSON.stringify(stored)}::text::jsonb, ${at}::text::timestamptz, ${expiresAt}::text::timestamptz)
    on conflict (merchant_id, method, path, key) do update set
      request_digest = excluded.request_digest, state = excluded.state, locked_until = null,
      response_status = excluded.response_status, response_body = excluded.response_body,
      created_at = excluded.created_at, expires_at = excluded.expires_at
    where k.expires_at <= ${at}::text::timestamptz
      or (k.state = 'in_progress' and k.locked_until <= ${at}::text::timestamptz)
    returning k.key`);
  return rowsOf(result).length > 0;
}
