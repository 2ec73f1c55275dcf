import { newId } from "@/lib/ids";
import type { Runtime } from "@/server/runtime";
import { createServiceContext } from "@/server/services/create-context";
import { resolveSession } from "@/server/services/sessions/resolve";
import { TOUCH_INTERVAL_MS, type ResolvedSession } from "@/server/services/sessions/schemas";
import { touchSession } from "@/server/services/sessions/touch";
import { processWide } from "@/server/process-wide";

/**
 * Every dashboard request (pages, tRPC, exports, uploads, server actions) checks its session row, through this
 * per-process cache (docs/dashboard.md, "Sessions"): an answer, live or not, is kept `SESSION_CACHE_TTL_MS`, and
 * lookups of one session that overlap share one query. So a session costs a process at most one indexed read
 * per TTL however many requests it makes, and a revocation anywhere — another process, another machine — is
 * seen by every process within the TTL (well inside the 5 s bound), with no listener connection whose loss
 * could stretch that bound. A revocation made by this process is seen at once (`forgetSessions`).
 *
 * Speed around the domain: `resolveSession` is the one check; this only decides how often it runs.
 */
export const SESSION_CACHE_TTL_MS = 2_000;
const MAX_ENTRIES = 50_000;

interface Entry {
  at: number;
  answer: Promise<ResolvedSession | null>;
  /** Whose session it is, once the answer is in (forgetSessions by user). */
  userId?: string | null;
}

// One cache per runtime (tests build several), one set per process (processWide): a sign-out through one route
// bundle must reach the others at once.
const caches = processWide("sessionCaches", () => new WeakMap<Runtime, Map<string, Entry>>());

function cacheOf(runtime: Runtime): Map<string, Entry> {
  let cache = caches.get(runtime);
  if (!cache) caches.set(runtime, (cache = new Map()));
  return cache;
}

/** The live session `id` names and its user, as of at most SESSION_CACHE_TTL_MS ago; null when it may not be used. */
export function lookUpSession(runtime: Runtime, id: string): Promise<ResolvedSession | null> {
  const cache = cacheOf(runtime);
  const now = Date.now();
  const cached = cache.get(id);
  if (cached && now - cached.at < SESSION_CACHE_TTL_MS) return cached.answer;
  const answer = resolveAndTouch(runtime, id);
  const entry: Entry = { at: now, answer };
  answer.then(
    (session) => (entry.userId = session?.user.id ?? null),
    // A failed lookup (the database is down) is not kept: the next request asks again.
    () => cache.get(id) === entry && cache.delete(id),
  );
  cache.delete(id); // re-inserted last: the Map's order is then oldest first, for the trim below
  cache.set(id, entry);
  if (cache.size > MAX_ENTRIES) trim(cache, now);
  return answer;
}

async function resolveAndTouch(runtime: Runtime, id: string): Promise<ResolvedSession | null> {
  const ctx = createServiceContext(runtime, { type: "system" }, newId("request"));
  const session = await resolveSession({ ctx, input: { id } });
  if (session && session.lastSeenAt.getTime() < runtime.now().getTime() - TOUCH_INTERVAL_MS) {
    // Last seen is for the user's list of sessions: a failure to record it must not refuse the request.
    await touchSession({ ctx, input: { id } }).catch((error: unknown) => runtime.log.warn({ err: error }, "could not record a session's last use"));
  }
  return session;
}

/** Drops what this process holds about these sessions (or all of a user's), after it revoked them. */
export function forgetSessions(runtime: Runtime, which: { sessionId?: string; userId?: string }): void {
  const cache = cacheOf(runtime);
  if (which.sessionId) cache.delete(which.sessionId);
  if (!which.userId) return;
  // A lookup still under way may be this user's too: dropped as well, it is simply asked again.
  for (const [id, entry] of cache) if (entry.userId === which.userId || entry.userId === undefined) cache.delete(id);
}

function trim(cache: Map<string, Entry>, now: number) {
  for (const [id, entry] of cache) {
    if (cache.size <= MAX_ENTRIES && now - entry.at < SESSION_CACHE_TTL_MS) break;
    cache.delete(id);
  }
}
