/**
 * `node --import tsx bench/tools/statement-cost.ts`: the CPU it costs to build the stored idempotent answer's upsert
 * (db/sql/idempotency-keys.ts), from its hand-written template and from drizzle's insert builder, without running
 * it: the statement and its execution are the same either way, so this is the whole difference on a confirm.
 */
import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/pglite";
import { idempotencyKeys as k } from "../../src/server/db/schema";

const CALLS = 20_000;
const dialect = new PgDialect();
const db = drizzle.mock();
const now = new Date();
const at = now.toISOString();
const expiresAt = new Date(now.getTime() + 86_400_000);
const answer = { merchantId: "mer_01JABCDEFGHJKMNPQRSTVWXYZ", method: "POST", path: "/api/v1/payment/confirm", key: "order-42", requestDigest: "d".repeat(64) };
const body = JSON.stringify({ id: "pay_01JABCDEFGHJKMNPQRSTVWXYZ", status: "confirmed", amount: "10.00", currency: "EUR" });

const template = () =>
  dialect.sqlToQuery(sql`
    insert into ${k} as k
      (merchant_id, method, path, key, request_digest, state, locked_until, response_status, response_body, created_at, expires_at)
    values (${answer.merchantId}, ${answer.method}, ${answer.path}, ${answer.key}, ${answer.requestDigest}, 'completed', null, ${201}::int,
      ${JSON.stringify(body)}::text::jsonb, ${at}::text::timestamptz, ${expiresAt.toISOString()}::text::timestamptz)
    on conflict (merchant_id, method, path, key) do update set
      request_digest = excluded.request_digest, state = excluded.state, locked_until = null,
      response_status = excluded.response_status, response_body = excluded.response_body,
      created_at = excluded.created_at, expires_at = excluded.expires_at
    where k.expires_at <= ${at}::text::timestamptz
      or (k.state = 'in_progress' and k.locked_until <= ${at}::text::timestamptz)
    returning k.key`);

const builder = () =>
  db
    .insert(k)
    .values({ ...answer, state: "completed", lockedUntil: null, responseStatus: 201, responseBody: body, createdAt: now, expiresAt })
    .onConflictDoUpdate({
      target: [k.merchantId, k.method, k.path, k.key],
      set: {
        requestDigest: sql`excluded.request_digest`,
        state: sql`excluded.state`,
        lockedUntil: null,
        responseStatus: sql`excluded.response_status`,
        responseBody: sql`excluded.response_body`,
        createdAt: sql`excluded.created_at`,
        expiresAt: sql`excluded.expires_at`,
      },
      setWhere: sql`${k.expiresAt} <= ${now} or (${k.state} = 'in_progress' and ${k.lockedUntil} <= ${now})`,
    })
    .returning({ key: k.key })
    .toSQL();

function microsPerCall(build: () => unknown): number {
  for (let i = 0; i < 2_000; i++) build();
  const before = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) build();
  const cpu = process.cpuUsage(before);
  return (cpu.user + cpu.system) / CALLS;
}

console.log(`template: ${microsPerCall(template).toFixed(1)} µs of CPU a statement`);
console.log(`builder:  ${microsPerCall(builder).toFixed(1)} µs of CPU a statement`);
