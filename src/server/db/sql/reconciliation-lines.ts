import { sql } from "drizzle-orm";
import { payments, reconciliationLines, type ReconciliationLineRow } from "../schema";
import type { Executor } from "../types";

/** A report line as matching makes it; the report's merchant and id and the line's position are given on insert. */
export type NewReportLine = Omit<ReconciliationLineRow, "merchantId" | "reconciliationId" | "position" | "resolvedAt" | "resolvedBy" | "resolutionNote">;

/** The report the lines belong to: its merchant leads every key of the lines (docs/operations.md, "Past one primary"). */
export interface ReportKey {
  merchantId: string;
  id: string;
}

/**
 * Writes a batch of report lines with one statement and one JSON parameter, values typed by the record definition.
 * Speed: drizzle's multi-row insert binds a parameter per cell (14,000 a batch), which cost more CPU than the
 * database's work; this keeps case 8's target (100,000 lines in < 5 s on the server, BENCHMARKS.md).
 */
export async function insertReportLines(db: Executor, report: ReportKey, firstPosition: number, lines: readonly NewReportLine[]): Promise<void> {
  if (lines.length === 0) return;
  const rows = lines.map((line, i) => ({
    p: firstPosition + i,
    n: line.lineNumber,
    s: line.status,
    r: line.reason,
    e: line.externalId,
    ref: line.reference,
    fa: line.fileAmount,
    fc: line.fileCurrency,
    f: line.fee,
    at: line.settledAt?.toISOString() ?? null,
    pid: line.paymentId,
    k: line.kind,
    rid: line.refundId,
    la: line.ledgerAmount,
    lc: line.ledgerCurrency,
  }));
  await db.execute(sql`
    insert into ${reconciliationLines} (merchant_id, reconciliation_id, position, line_number, status, reason, external_id, reference,
      file_amount, file_currency, fee, settled_at, payment_id, ledger_amount, ledger_currency, kind, refund_id)
    select ${report.merchantId}, ${report.id}, p, n, s, r, e, ref, fa, fc, f, at, pid, la, lc, k, rid
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as x(p int, n int, s text, r text, e text, ref text, fa text, fc text, f text, at timestamptz, pid text, la text, lc text, k text, rid text)`);
}

/** Marks every line after the first that names the same payment (or, for refund lines, the same refund) as a `duplicate` mismatch. */
export async function markDuplicateLines(tx: Executor, report: ReportKey): Promise<void> {
  const lines = reconciliationLines;
  const { id, merchantId } = report;
  await tx.execute(sql`
      update ${lines} as l set status = 'mismatched', reason = 'duplicate'
      from (
        select position, row_number() over (partition by kind, payment_id, refund_id order by position) as seen
        from ${lines} where merchant_id = ${merchantId} and reconciliation_id = ${id} and payment_id is not null
      ) as d
      where l.merchant_id = ${merchantId} and l.reconciliation_id = ${id} and l.position = d.position and d.seen > 1`);
}

/**
 * Adds a `missingInFile` line, after the file's `fileLines`, for each confirmed payment of the merchant and mode
 * created in the window that no line names, at most `limit` of them: the window's payments except the lines'
 * payment ids, nothing of the file in memory.
 */
export async function insertMissingInFileLines(
  tx: Executor,
  report: { id: string; merchantId: string; livemode: boolean; fileLines: number; window: { from: Date | null; to: Date | null }; limit: number },
): Promise<void> {
  const lines = reconciliationLines;
  const { id, merchantId, window } = report;
  const from = window.from ? sql`and p.created_at >= ${window.from.toISOString()}::timestamptz` : sql``;
  const to = window.to ? sql`and p.created_at <= ${window.to.toISOString()}::timestamptz` : sql``;
  await tx.execute(sql`
        insert into ${lines} (merchant_id, reconciliation_id, position, status, external_id, reference, payment_id, ledger_amount, ledger_currency)
        select ${merchantId}, ${id}, ${report.fileLines} + row_number() over (order by p.created_at, p.id), 'missingInFile',
               p.external_id, p.reference, p.id, p.amount::text, p.currency
        from (
          -- A set difference, not NOT EXISTS: with the limit, the planner would probe the report's lines (indexed
          -- by position only) once per payment of the window; EXCEPT reads each side once.
          (select p.id from ${payments} as p
           where p.merchant_id = ${merchantId} and p.livemode = ${report.livemode} and p.status = 'confirmed' ${from} ${to})
          except
          (select l.payment_id from ${lines} as l where l.merchant_id = ${merchantId} and l.reconciliation_id = ${id} and l.payment_id is not null and l.kind = 'payment')
          limit ${report.limit}
        ) as m
        join ${payments} as p on p.id = m.id and p.merchant_id = ${merchantId}`);
}
