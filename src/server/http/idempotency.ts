import { createHash } from "node:crypto";
import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { canonicalJson } from "@/lib/canonical-json";
import { idempotencyKeys } from "@/server/db/schema";
import type { Database, Executor } from "@/server/db/types";
import type { Runtime } from "@/server/runtime";
import { isServiceError, ValidationError } from "@/server/services/errors";
import { runAtomically } from "./idempotency-atomic";
import {
  answerOf,
  FINAL_ERROR_CODES,
  IDEMPOTENCY_TTL_MS,
  keyInUseError,
  matchesScope,
  storedBody,
  type KeyScope,
} from "./idempotency-records";
import { problemBody } from "./problem";
import type { AnyRoute, Reply } from "./route";

/**
 * Idempotency-Key for every authenticated POST (Stripe's semantics, decisions in docs/idempotency.md).
 *
 * Two modes. Routes whose handler only touches the database run atomically (`idempotency-atomic.ts`): the
 * answer is stored in the handler's own transaction. The others (they call out over the network, e.g. a
 * test webhook) claim the key first: a committed `in_progress` row under a lease, so a concurrent duplicate
 * sees the claim and gets 409 idempotency_key_in_use; when the handler ends its answer is stored (2xx and
 * final 4xx) or the claim released (anything a retry could change), and a crashed request's claim expires
 * with its lease. A finished key expires after 24 h. Only a SHA-256 digest of the canonical body is kept,
 * never the body.
 */
export const IDEMPOTENCY_HEADER = "idempotency-key";
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** Longer than any request may run (webhook test sends time out at 15 s); a crashed claim frees after this. */
export const IDEMPOTENCY_LEASE_MS = 60_000;

const DEFAULT_POLICY = { store: "final" } as const;

/** The request's Idempotency-Key when the mechanism applies (a merchant's POST, not opted out), else null. */
export function idempotencyKeyOf(request: Request, route: AnyRoute, merchantId: string | undefined): string | null {
  if (request.method !== "POST" || !merchantId || route.idempotency === false) return null;
  const key = request.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return null;
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ValidationError([
      { path: `headers.${IDEMPOTENCY_HEADER}`, message: `must be 1–${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters` },
    ]);
  }
  return key;
}

/**
 * The stored `path` of a key: the request's path, preceded by `test ` in test mode, so a test key reusing a live
 * key's Idempotency-Key is a different request and never replays a live answer (docs/test-mode.md). A URL path
 * never holds a space, so no live path can equal a test one.
 */
export function scopedPath(pathname: string, livemode: boolean): string {
  return livemode ? pathname : `test ${pathname}`;
}

/** Runs `execute` at most once per (merchant, mode, method, path, key) and body; replays its stored answer after. */
export async function runIdempotently(
  options: { runtime: Runtime; route: AnyRoute; request: Request; merchantId: string; livemode: boolean; key: string; body: unknown; requestId: string },
  /** Runs the handler; with `db`, on that transaction instead of the root database. */
  execute: (db?: Executor) => Promise<Reply>,
): Promise<Reply> {
  const { runtime, route, request, requestId } = options;
  const db = runtime.database.db;
  const policy = route.idempotency || DEFAULT_POLICY;
  const scope: KeyScope = { merchantId: options.merchantId, method: request.method, path: scopedPath(new URL(request.url).pathname, options.livemode), key: options.key };
  const digest = createHash("sha256").update(canonicalJson(options.body ?? null)).digest("hex");

  if ("atomic" in policy && policy.atomic) {
    const reply = await runAtomically({ runtime, scope, digest, requestId, storeFinalErrors: policy.store === "final" }, execute);
    await maybePurge(runtime);
    return reply;
  }

  const claim = await claimKey(db, scope, digest, runtime.now());
  if (claim.kind === "replay") return claim.reply;

  let reply: Reply;
  try {
    reply = await execute();
  } catch (error) {
    if (policy.store === "final" && isServiceError(error) && FINAL_ERROR_CODES.has(error.code)) {
      await completeKey(runtime, scope, claim.lockedUntil, error.status, problemBody(error.code, error.detail, requestId, error.errors));
    } else {
      await releaseKey(runtime, scope, claim.lockedUntil);
    }
    throw error;
  }
  if (policy.store !== "none" && reply.status >= 200 && reply.status < 300) {
    await completeKey(runtime, scope, claim.lockedUntil, reply.status, reply.body ?? null);
  } else {
    await releaseKey(runtime, scope, claim.lockedUntil);
  }
  await maybePurge(runtime);
  return reply;
}

/** About one request in a hundred clears a batch of expired keys: no timer needed in the web process. */
async function maybePurge(runtime: Runtime) {
  if (Math.random() >= 0.01) return;
  try {
    await purgeExpiredIdempotencyKeys(runtime.database.db, runtime.now());
  } catch (error) {
    runtime.log.warn({ err: error }, "could not purge expired idempotency keys");
  }
}

type Claim = { kind: "owned"; lockedUntil: Date } | { kind: "replay"; reply: Reply };

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
    if (recorded) return { kind: "replay", reply: recorded };
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
async function completeKey(runtime: Runtime, scope: KeyScope, lockedUntil: Date, status: number, body: unknown) {
  try {
    const stored = await runtime.database.db
      .update(idempotencyKeys)
      .set({ state: "completed", responseStatus: status, responseBody: storedBody(body), lockedUntil: null })
      .where(and(matchesScope(scope), eq(idempotencyKeys.state, "in_progress"), eq(idempotencyKeys.lockedUntil, lockedUntil)))
      .returning({ key: idempotencyKeys.key });
    if (stored.length === 0) runtime.log.warn({ path: scope.path }, "idempotency claim was taken over before the response was stored");
  } catch (error) {
    runtime.log.warn({ err: error, path: scope.path }, "could not store an idempotent response; its claim will expire");
  }
}

/** Frees the key for a retry. A failure here must not mask the handler's own error: the lease frees it later. */
async function releaseKey(runtime: Runtime, scope: KeyScope, lockedUntil: Date) {
  try {
    await runtime.database.db
      .delete(idempotencyKeys)
      .where(and(matchesScope(scope), eq(idempotencyKeys.state, "in_progress"), eq(idempotencyKeys.lockedUntil, lockedUntil)));
  } catch (error) {
    runtime.log.warn({ err: error, path: scope.path }, "could not release an idempotency claim; its lease will expire");
  }
}

/**
 * Deletes up to `limit` expired keys. Expired keys are already ignored (and overwritten on reuse); this
 * only keeps the table small. Called by about one request in a hundred; a worker may also call it on a timer.
 */
export async function purgeExpiredIdempotencyKeys(db: Database, now: Date, limit = 500): Promise<void> {
  await db.execute(sql`
    delete from ${idempotencyKeys} where ctid in (
      select ctid from ${idempotencyKeys} where ${lte(idempotencyKeys.expiresAt, now)} limit ${limit})`);
}
