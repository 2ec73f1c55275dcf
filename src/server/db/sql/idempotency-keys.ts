import { sql } from "drizzle-orm";
import { rowsOf } from "../rows";
import { idempotencyKeys } from "../schema";
import type { Executor } from "../types";

/**
 * Inserts a completed Idempotency-Key with its answer, or takes over the scope's row when it has expired (or is a
 * claim whose lease ran out); `body` is the answer's serialised text, kept as a JSON string inside jsonb. Returns
 * false when a live row holds the key (services/idempotency/atomic.ts).
 *
 * Speed (case 2, confirm, BENCHMARKS.md): drizzle's insert builder spends about 90 µs of CPU more building this
 * statement than this template does (bench/tools/statement-cost.ts, Node 24), 3 % of a confirm's server CPU.
 */
export async function upsertCompletedKey(
  db: Executor,
  answer: { merchantId: string; method: string; path: string; key: string; digest: string; now: Date; expiresAt: Date; status: number; body: string | null },
): Promise<boolean> {
  const at = answer.now.toISOString();
  const expiresAt = answer.expiresAt.toISOString();
  const result = await db.execute(sql`
    insert into ${idempotencyKeys} as k
      (merchant_id, method, path, key, request_digest, state, locked_until, response_status, response_body, created_at, expires_at)
    values (${answer.merchantId}, ${answer.method}, ${answer.path}, ${answer.key}, ${answer.digest}, 'completed', null, ${answer.status}::int,
      ${answer.body === null ? null : JSON.stringify(answer.body)}::text::jsonb, ${at}::text::timestamptz, ${expiresAt}::text::timestamptz)
    on conflict (merchant_id, method, path, key) do update set
      request_digest = excluded.request_digest, state = excluded.state, locked_until = null,
      response_status = excluded.response_status, response_body = excluded.response_body,
      created_at = excluded.created_at, expires_at = excluded.expires_at
    where k.expires_at <= ${at}::text::timestamptz
      or (k.state = 'in_progress' and k.locked_until <= ${at}::text::timestamptz)
    returning k.key`);
  return rowsOf(result).length > 0;
}
