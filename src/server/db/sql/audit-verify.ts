import { sql } from "drizzle-orm";
import { rowsOf } from "../rows";
import type { Executor } from "../types";
import { chainOf } from "./audit-chain";

/** Rows read per query while walking a chain. */
const WALK_BATCH = 2000;

/** The first break found in one chain (docs/team-and-security.md, "What verification can and cannot tell"). */
export type ChainBreak =
  /** The row's hash is not the hash of its predecessor's hash and its own content: it was changed. */
  | { kind: "altered"; merchantId: string | null; position: number; id: string }
  /** Positions missing between two rows: removed from the middle of the chain. */
  | { kind: "missing"; merchantId: string | null; position: number; through: number; beforeId: string }
  /** A position taken twice: a row was copied or forged. */
  | { kind: "duplicate"; merchantId: string | null; position: number; id: string }
  /** The chain's head says it is longer than the rows found: the last entries were removed. */
  | { kind: "truncated"; merchantId: string | null; position: number; through: number }
  /** The head's hash is not the last row's: the last row or the head was changed. */
  | { kind: "head_mismatch"; merchantId: string | null; position: number }
  /** Rows with no head row: the head was deleted. */
  | { kind: "head_missing"; merchantId: string | null; position: number };

export interface ChainReport {
  merchantId: string | null;
  entries: number;
  /** The last position's hash: record it elsewhere to detect a rewritten tail later. */
  headHash: string | null;
  firstBreak: ChainBreak | null;
}

/** The chains to walk: every head, and any chain that has rows but no head (its head was deleted). */
async function chainsToWalk(db: Executor, merchantId: string | undefined): Promise<(string | null)[]> {
  if (merchantId !== undefined) return [merchantId];
  const rows = rowsOf<{ chain: string }>(
    await db.execute(sql`select chain from audit_chain_heads union select distinct coalesce(merchant_id, '') from audit_log order by 1`),
  );
  return rows.map(({ chain }) => (chain === "" ? null : chain));
}

/**
 * Walks each chain in position order, recomputing every link with `audit_entry_hash`, and reports per chain the
 * first entry altered or removed. `merchantId` limits it to one merchant's chain. Read-only.
 */
export async function verifyAuditChains(db: Executor, options: { merchantId?: string } = {}): Promise<ChainReport[]> {
  const reports: ChainReport[] = [];
  for (const merchantId of await chainsToWalk(db, options.merchantId)) reports.push(await verifyChain(db, merchantId));
  return reports;
}

interface WalkedRow {
  id: string;
  seq: string | number;
  hash: string;
  expected: string;
}

async function verifyChain(db: Executor, merchantId: string | null): Promise<ChainReport> {
  const [head] = rowsOf<{ seq: string | number; hash: string }>(
    await db.execute(sql`select seq, hash from audit_chain_heads where chain = ${chainOf(merchantId)}`),
  );
  const ofChain = merchantId === null ? sql`merchant_id is null` : sql`merchant_id = ${merchantId}`;
  let lastSeq = 0;
  let lastHash = "";
  let entries = 0;
  const report = (firstBreak: ChainBreak | null): ChainReport => ({ merchantId, entries, headHash: head?.hash ?? null, firstBreak });
  for (;;) {
    // Each row's link is recomputed from the stored hash of the row before it (`lag`; the batch's first row, from the
    // last row read): an altered row is named itself, not its successor.
    const rows = rowsOf<WalkedRow>(
      await db.execute(sql`
        select id, seq, hash, audit_entry_hash(coalesce(lag(hash) over (order by seq, id), ${lastHash}::text), seq, id,
          actor_type, actor_id, merchant_id, action, target_type, target_id, request_id, ip, user_agent, details, created_at) as expected
        from (select * from audit_log where ${ofChain} and seq >= ${lastSeq + 1} order by seq, id limit ${WALK_BATCH}) batch
        order by seq, id`),
    );
    for (const row of rows) {
      const seq = Number(row.seq);
      if (seq <= lastSeq) return report({ kind: "duplicate", merchantId, position: seq, id: row.id });
      if (seq > lastSeq + 1) return report({ kind: "missing", merchantId, position: lastSeq + 1, through: seq - 1, beforeId: row.id });
      if (row.expected !== row.hash) return report({ kind: "altered", merchantId, position: seq, id: row.id });
      lastSeq = seq;
      lastHash = row.hash;
      entries += 1;
    }
    if (rows.length < WALK_BATCH) break;
  }
  if (!head) return report(entries > 0 ? { kind: "head_missing", merchantId, position: lastSeq } : null);
  const headSeq = Number(head.seq);
  if (headSeq > lastSeq) return report({ kind: "truncated", merchantId, position: lastSeq + 1, through: headSeq });
  if (headSeq < lastSeq || head.hash !== lastHash) return report({ kind: "head_mismatch", merchantId, position: lastSeq });
  return report(null);
}

/** One line naming a break, for the command's output. */
export function describeBreak(found: ChainBreak): string {
  const chain = found.merchantId ? `merchant ${found.merchantId}` : "entries naming no merchant";
  switch (found.kind) {
    case "altered":
      return `${chain}: entry ${found.id} at position ${found.position} was altered`;
    case "missing":
      return `${chain}: ${span(found.position, found.through)} removed (before entry ${found.beforeId})`;
    case "duplicate":
      return `${chain}: position ${found.position} appears twice (entry ${found.id})`;
    case "truncated":
      return `${chain}: ${span(found.position, found.through)} removed from the end (the chain's head says ${found.through})`;
    case "head_mismatch":
      return `${chain}: the chain's head does not match its last entry (position ${found.position}): the last entry or the head was altered`;
    case "head_missing":
      return `${chain}: the chain's head row is missing (entries up to position ${found.position})`;
  }
}

const span = (from: number, through: number) => (from === through ? `the entry at position ${from} was` : `entries at positions ${from}–${through} were`);
