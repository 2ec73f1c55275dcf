/**
 * What checking a dashboard session costs a request: the session's read (`resolveSession`, one indexed join) and
 * the per-process cache in front of it (auth/session-lookup.ts), on the PostgreSQL server or embedded PGlite:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/session-lookup.ts
 *   npx tsx bench/session-lookup.ts            # embedded
 *
 * Also counts the reads a burst of requests makes: 200 signed-in users each making 10 requests within the TTL.
 * Figures are in docs/dashboard.md ("Sessions"). Not a unit test: timings depend on the machine.
 */
import { eq } from "drizzle-orm";
import { parseEnv } from "../src/env";
import { newId } from "../src/lib/ids";
import { lookUpSession, SESSION_CACHE_TTL_MS } from "../src/server/auth/session-lookup";
import { users } from "../src/server/db/schema";
import { createLogger } from "../src/server/log";
import { createRuntime } from "../src/server/runtime";
import { createServiceContext } from "../src/server/services/create-context";
import { registerMerchant } from "../src/server/services/merchants/register";
import { createSession } from "../src/server/services/sessions/create";
import { resolveSession } from "../src/server/services/sessions/resolve";
import { openOwnDatabase } from "./lib/own-database";

const USERS = 200;
const ROUNDS = 2_000;

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timeEach(rounds: number, work: (i: number) => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await work(i);
    times.push((performance.now() - started) * 1000);
  }
  times.sort((a, b) => a - b);
  return `p50 ${percentile(times, 50).toFixed(0)} µs, p99 ${percentile(times, 99).toFixed(0)} µs`;
}

async function main() {
  const database = await openOwnDatabase(process.env.DATABASE_URL);
  const env = parseEnv({ AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0", LOG_LEVEL: "warn", WEBHOOK_WORKER: "off" });
  const runtime = createRuntime({ env, database: database.handle, log: createLogger("warn") });
  try {
    const sessionIds: string[] = [];
    for (let i = 0; i < USERS; i++) {
      const anonymous = createServiceContext(runtime, { type: "anonymous", ip: "192.0.2.1" }, newId("request"));
      const { merchant } = await registerMerchant({
        ctx: anonymous,
        input: { name: `Bench ${i}`, email: `bench-${i}-${newId("request").slice(-8).toLowerCase()}@example.com`, password: "bench password 0123" },
      });
      const [user] = await runtime.database.db.select({ id: users.id }).from(users).where(eq(users.merchantId, merchant.id)).limit(1);
      const ctx = createServiceContext(runtime, { type: "user", userId: user!.id, merchantId: merchant.id }, newId("request"));
      sessionIds.push((await createSession({ ctx, input: { ip: "192.0.2.1", userAgent: "bench" } })).id);
    }
    const system = createServiceContext(runtime, { type: "system" }, newId("request"));
    console.log(`database: ${database.handle.kind}`);
    console.log(`resolveSession (the read, uncached): ${await timeEach(ROUNDS, (i) => resolveSession({ ctx: system, input: { id: sessionIds[i % USERS]! } }))}`);
    await Promise.all(sessionIds.map((id) => lookUpSession(runtime, id)));
    console.log(`lookUpSession (cached, within ${SESSION_CACHE_TTL_MS} ms): ${await timeEach(ROUNDS, (i) => lookUpSession(runtime, sessionIds[i % USERS]!))}`);

    // Reads made by a burst: every user's 10 requests, interleaved, within one TTL.
    let reads = 0;
    const counting = createRuntime({ env, database: database.handle, log: createLogger("warn") });
    const original = counting.database.db.select.bind(counting.database.db);
    counting.database = { ...counting.database, db: new Proxy(counting.database.db, { get: (target, key) => (key === "select" ? (...args: Parameters<typeof original>) => (reads++, original(...args)) : Reflect.get(target, key)) }) };
    const started = Date.now();
    await Promise.all(Array.from({ length: 10 }, () => Promise.all(sessionIds.map((id) => lookUpSession(counting, id)))));
    console.log(`burst of ${USERS * 10} requests from ${USERS} sessions in ${Date.now() - started} ms: ${reads} session reads`);
  } finally {
    await database.close();
  }
}

void main();
