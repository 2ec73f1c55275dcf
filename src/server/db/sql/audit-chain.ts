import { sql, type SQL } from "drizzle-orm";
import { rowsOf } from "../rows";
import type { Executor } from "../types";

/**
 * The one way audit rows are written: each takes the next position of its merchant's hash chain
 * (docs/team-and-security.md, "Audit log"). The chain's head row (`audit_chain_heads`) is locked by the writer's
 * upsert until its transaction ends, so one merchant's entries take positions one at a time, in commit order, while
 * other merchants' never wait. `audit_entry_hash` (drizzle/0020_audit_log_chain.sql) computes each link in SQL:
 * the writer, the migration that chained the earlier rows and `audit:verify` share that one definition.
 */
export interface AuditRowInput {
  id: string;
  actorType: "api_key" | "user" | "staff" | "system" | "anonymous";
  actorId: string | null;
  merchantId: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  requestId: string | null;
  ip: string | null;
  userAgent: string | null;
  details: Record<string, unknown> | null;
  createdAt: Date;
}

/** The chain a row belongs to: its merchant, or '' for rows naming no merchant (staff sign-ins). */
export const chainOf = (merchantId: string | null): string => merchantId ?? "";

/** Rows a bulk append chains per statement (a reconciliation can resolve 100,000 payments at once). */
const BULK_BATCH = 500;

/** `audit_entry_hash(prev, seq, …)` over one row's values; `prev` and `seq` are SQL expressions. */
function entryHash(prev: SQL, seq: SQL, row: AuditRowInput): SQL {
  return sql`audit_entry_hash(${prev}, ${seq}, ${row.id}::text, ${row.actorType}::text, ${row.actorId}::text,
    ${row.merchantId}::text, ${row.action}::text, ${row.targetType}::text, ${row.targetId}::text, ${row.requestId}::text,
    ${row.ip}::text, ${row.userAgent}::text, ${detailsText(row)}::jsonb, ${row.createdAt.toISOString()}::text::timestamptz)`;
}

const detailsText = (row: AuditRowInput) => (row.details === null ? null : JSON.stringify(row.details));

/** The insert's column list and one row's values, the chain's position and hash coming from `link`. */
function insertFrom(row: AuditRowInput, link: { seq: SQL; hash: SQL }): SQL {
  return sql`insert into audit_log (id, actor_type, actor_id, merchant_id, action, target_type, target_id, request_id, ip,
      user_agent, details, created_at, seq, hash)
    select ${row.id}, ${row.actorType}, ${row.actorId}, ${row.merchantId}, ${row.action}, ${row.targetType}, ${row.targetId},
      ${row.requestId}, ${row.ip}, ${row.userAgent}, ${detailsText(row)}::jsonb, ${row.createdAt.toISOString()}::text::timestamptz,
      ${link.seq}, ${link.hash}`;
}

/**
 * Appends one row to its chain in one statement: the upsert moves the head (creating it for a merchant's first
 * row) and locks it; the insert takes the head's new position and hash. Must run in the change's transaction.
 */
export async function appendAuditRow(tx: Executor, row: AuditRowInput): Promise<void> {
  const chain = chainOf(row.merchantId);
  await tx.execute(sql`
    with head as (
      insert into audit_chain_heads as h (chain, seq, hash)
      values (${chain}, 1, ${entryHash(sql`''`, sql`1::bigint`, row)})
      on conflict (chain) do update set seq = h.seq + 1, hash = ${entryHash(sql`h.hash`, sql`h.seq + 1`, row)}
      returning seq, hash
    )
    ${insertFrom(row, { seq: sql`head.seq`, hash: sql`head.hash` })} from head`);
}

/**
 * Appends many rows of one chain: locks the head once, then chains each batch in one statement that computes its
 * links one after another (a recursive CTE over the batch), and moves the head to the last. In the change's
 * transaction.
 */
export async function appendAuditRows(tx: Executor, rows: readonly AuditRowInput[]): Promise<void> {
  if (rows.length === 0) return;
  const chain = chainOf(rows[0]!.merchantId);
  if (rows.some((row) => chainOf(row.merchantId) !== chain)) throw new Error("appendAuditRows: rows of one chain only");
  const [head] = rowsOf<{ seq: string | number; hash: string }>(
    await tx.execute(sql`
      insert into audit_chain_heads as h (chain, seq, hash) values (${chain}, 0, '')
      on conflict (chain) do update set chain = h.chain
      returning seq, hash`),
  );
  let seq = Number(head!.seq);
  let hash = head!.hash;
  for (let start = 0; start < rows.length; start += BULK_BATCH) {
    const batch = rows.slice(start, start + BULK_BATCH);
    const values = batch.map(
      (row, index) => sql`(${index + 1}::int, ${row.id}::text, ${row.actorType}::text, ${row.actorId}::text, ${row.merchantId}::text,
        ${row.action}::text, ${row.targetType}::text, ${row.targetId}::text, ${row.requestId}::text, ${row.ip}::text,
        ${row.userAgent}::text, ${detailsText(row)}::jsonb, ${row.createdAt.toISOString()}::text::timestamptz)`,
    );
    // Each row's link is a function of the one before it: computed row by row, in order, by the recursive CTE.
    const [last] = rowsOf<{ seq: string | number; hash: string }>(
      await tx.execute(sql`
        with recursive input (n, id, actor_type, actor_id, merchant_id, action, target_type, target_id, request_id, ip,
            user_agent, details, created_at) as (values ${sql.join(values, sql`, `)}),
        links (n, seq, hash) as (
          select 0, ${seq}::bigint, ${hash}::text
          union all
          select i.n, c.seq + 1, audit_entry_hash(c.hash, c.seq + 1, i.id, i.actor_type, i.actor_id, i.merchant_id, i.action,
            i.target_type, i.target_id, i.request_id, i.ip, i.user_agent, i.details, i.created_at)
          from links c join input i on i.n = c.n + 1
        ),
        inserted as (
          insert into audit_log (id, actor_type, actor_id, merchant_id, action, target_type, target_id, request_id, ip,
            user_agent, details, created_at, seq, hash)
          select i.id, i.actor_type, i.actor_id, i.merchant_id, i.action, i.target_type, i.target_id, i.request_id, i.ip,
            i.user_agent, i.details, i.created_at, l.seq, l.hash
          from input i join links l on l.n = i.n
        )
        select seq, hash from links where n = ${batch.length}`),
    );
    seq = Number(last!.seq);
    hash = last!.hash;
  }
  await tx.execute(sql`update audit_chain_heads set seq = ${seq}, hash = ${hash} where chain = ${chain}`);
}
