import type { EventRow, WebhookDeliveryRow } from "@/server/db/schema";
import { asDate, asDateOrNull, asJson, queryRows } from "@/server/db/raw";
import type { Executor } from "@/server/db/types";

/** A delivery this worker holds until `leaseExpiresAt`; that value doubles as the fencing token. */
export type ClaimedDelivery = WebhookDeliveryRow & {
  leaseExpiresAt: Date;
  nextAttemptAt: Date | null;
  /**
   * What the attempt needs, read by the claim statement itself (absent on deliveries claimed some other
   * way, e.g. a test send; the attempt then reads them). `event` is null when the event is gone.
   */
  prefetched?: {
    event: Pick<EventRow, "id" | "type" | "data" | "createdAt"> | null;
    /** The merchant's usable secrets, sealed, current first (as `loadSigningSecrets` orders them). */
    secretCiphertexts: string[];
  };
};

/*
 * One statement: pick due rows (expired leases of dead workers first, then pending rows oldest first, each
 * from its own partial index so neither scans the whole backlog), lock them (FOR UPDATE SKIP LOCKED: any
 * number of workers may run this at once without waiting on each other or claiming the same row), lease
 * them, and return them with their event and the merchant's secrets. The secrets are read by this statement,
 * so a rotation committed before the claim is what the attempt signs with.
 */
const claimSql = (withExpired: boolean, bounded: boolean) => `
with expired as (
  select id from webhook_deliveries
  where ${withExpired ? "" : "false and "}status = 'delivering' and lease_expires_at <= $1::timestamptz
  order by lease_expires_at
  limit $3::int
  for update skip locked
), due as (
  select id from webhook_deliveries
  where status = 'pending' and next_attempt_at <= $1::timestamptz${bounded ? " and next_attempt_at >= $4::timestamptz" : ""}
  order by next_attempt_at
  limit $3::int
  for update skip locked
), picked as (
  select id from expired
  union all
  select id from due
  limit $3::int
), claimed as (
  update webhook_deliveries d
  set status = 'delivering', lease_expires_at = $2::timestamptz, updated_at = $1::timestamptz
  from picked
  where d.id = picked.id
  returning d.*
)
select c.*,
  e.id as event_row_id, e.type as event_type, e.data as event_data, e.created_at as event_created_at,
  (select coalesce(json_agg(s.secret_ciphertext order by s.expires_at is not null, s.created_at desc, s.id desc), '[]'::json)
     from webhook_secrets s
     where s.merchant_id = c.merchant_id and (s.expires_at is null or s.expires_at > $1::timestamptz)) as secret_ciphertexts
from claimed c
left join events e on e.id = c.event_id and e.merchant_id = c.merchant_id
order by c.next_attempt_at`;
const CLAIM_SQL = claimSql(true, false);
const CLAIM_DUE_SQL = claimSql(false, false);
const CLAIM_DUE_FROM_SQL = claimSql(false, true);

/**
 * Claims up to `limit` due deliveries: pending ones whose time has come, and `delivering` ones whose lease
 * ran out (their worker died mid-attempt). The lease makes the claim outlive the statement, and expire if the
 * claimant does.
 */
export async function claimDueDeliveries(
  db: Executor,
  input: {
    limit: number;
    leaseMs: number;
    now: Date;
    /**
     * Look for expired leases too (default). The worker does so once a second rather than on every claim:
     * the lease index keeps an entry for every claim ever made until vacuum, and under load walking its
     * expired end on every claim cost more than the rest of the claim.
     */
    expired?: boolean;
    /**
     * Only pending rows due at or after this time (with `expired: false`). Every claim and record leaves a dead
     * entry at the old end of the due index until VACUUM, and an unbounded claim steps over all of them; the
     * worker passes a bound just below what it claimed last, and claims without one once a second, which
     * picks up anything the bound passed over (BENCHMARKS.md, case 5).
     */
    dueFrom?: Date;
  },
): Promise<ClaimedDelivery[]> {
  const { now } = input;
  const leaseExpiresAt = new Date(now.getTime() + input.leaseMs);
  const bounded = input.expired === false && input.dueFrom !== undefined;
  const text = bounded ? CLAIM_DUE_FROM_SQL : input.expired === false ? CLAIM_DUE_SQL : CLAIM_SQL;
  const params = [now.toISOString(), leaseExpiresAt.toISOString(), input.limit, ...(bounded ? [input.dueFrom!.toISOString()] : [])];
  const rows = await queryRows(db, text, params);
  return rows.map((row) => ({
    id: row.id as string,
    merchantId: row.merchant_id as string,
    eventId: row.event_id as string,
    url: row.url as string,
    status: row.status as WebhookDeliveryRow["status"],
    attemptCount: Number(row.attempt_count),
    nextAttemptAt: asDateOrNull(row.next_attempt_at),
    nextTrigger: row.next_trigger as WebhookDeliveryRow["nextTrigger"],
    leaseExpiresAt,
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
    lastError: row.last_error as string | null,
    deliveredAt: asDateOrNull(row.delivered_at),
    failedAt: asDateOrNull(row.failed_at),
    createdAt: asDate(row.created_at),
    updatedAt: asDate(row.updated_at),
    prefetched: {
      event:
        row.event_row_id === null || row.event_row_id === undefined
          ? null
          : {
              id: row.event_row_id as string,
              type: row.event_type as EventRow["type"],
              data: asJson<EventRow["data"]>(row.event_data),
              createdAt: asDate(row.event_created_at),
            },
      secretCiphertexts: asJson<string[]>(row.secret_ciphertexts),
    },
  }));
}
