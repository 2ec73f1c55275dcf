import { sql } from "drizzle-orm";
import { reconciliationLines } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import type { NewLine } from "./match-lines";

/**
 * Writes a batch of report lines with one statement and one JSON parameter: drizzle's multi-row insert
 * builds a bound parameter per cell (14,000 for a batch), which cost more CPU than the database's work
 * (bench/reconciliation.ts). Values reach PostgreSQL as JSON and are typed by the record definition.
 */
export async function insertLines(db: Executor, reconciliationId: string, firstPosition: number, lines: NewLine[]): Promise<void> {
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
    la: line.ledgerAmount,
    lc: line.ledgerCurrency,
  }));
  await db.execute(sql`
    insert into ${reconciliationLines} (reconciliation_id, position, line_number, status, reason, external_id, reference,
      file_amount, file_currency, fee, settled_at, payment_id, ledger_amount, ledger_currency)
    select ${reconciliationId}, p, n, s, r, e, ref, fa, fc, f, at, pid, la, lc
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as x(p int, n int, s text, r text, e text, ref text, fa text, fc text, f text, at timestamptz, pid text, la text, lc text)`);
}
