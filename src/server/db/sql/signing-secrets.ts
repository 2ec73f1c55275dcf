import { sql, type SQL } from "drizzle-orm";
import { rowsOf } from "../rows";
import { idArray } from "./literals";
import { webhookSecrets } from "../schema";
import type { Executor } from "../types";

/**
 * An endpoint's sealed signing secrets usable at `now` (an ISO text), as one array: the current one (no expiry)
 * first, then the previous one while its rotation window lasts, newest first (webhooks/secrets.ts opens them). The
 * one definition of which secrets sign, as a subquery: the worker's claim reads them in its own statement
 * (claim-deliveries.ts), every other caller by endpoint ids (`sealedSigningSecretsOf`).
 */
export function sealedSigningSecrets(endpointId: SQL, now: string): SQL {
  return sql`(select coalesce(array_agg(s.secret_ciphertext order by s.expires_at is not null, s.created_at desc, s.id desc), '{}'::text[])
    from ${webhookSecrets} s where s.endpoint_id = ${endpointId} and (s.expires_at is null or s.expires_at > ${now}::text::timestamptz))`;
}

/** `sealedSigningSecrets` of each endpoint, in one statement; an endpoint without secrets maps to `[]`. */
export async function sealedSigningSecretsOf(db: Executor, endpointIds: readonly string[], now: Date): Promise<Map<string, string[]>> {
  const ids = idArray([...new Set(endpointIds)]);
  const rows = rowsOf<{ endpoint_id: string; sealed: string[] }>(
    await db.execute(sql`select e.id as endpoint_id, ${sealedSigningSecrets(sql`e.id`, now.toISOString())} as sealed from unnest(${ids}) as e(id)`),
  );
  return new Map(rows.map((row) => [row.endpoint_id, row.sealed]));
}
