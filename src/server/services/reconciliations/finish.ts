import { and, count, eq, sql } from "drizzle-orm";
import { payments, reconciliationLines, reconciliations, type ReconciliationSummary } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, type ServiceContext } from "../context";

/**
 * The report's last step, in one transaction once every file line is written: a payment listed again is a
 * `duplicate` mismatch, the confirmed payments created in the window that the file did not list become
 * `missingInFile` lines (an anti-join on the lines' payment ids, in SQL: nothing of the file is in memory),
 * and the summary is counted and the report marked complete and audit-logged.
 */
export async function finishReconciliation(
  ctx: ServiceContext,
  report: { id: string; merchantId: string; livemode: boolean; fileLines: number; window: { from: Date | null; to: Date | null } },
): Promise<void> {
  const { id, merchantId, window } = report;
  await withTransaction(ctx.db, async (tx) => {
    const lines = reconciliationLines;
    await tx.execute(sql`
      update ${lines} as l set status = 'mismatched', reason = 'duplicate'
      from (
        select position, row_number() over (partition by payment_id order by position) as seen
        from ${lines} where reconciliation_id = ${id} and payment_id is not null
      ) as d
      where l.reconciliation_id = ${id} and l.position = d.position and d.seen > 1`);
    // Without a bound from the file or the caller there is no window, and nothing is "missing from the file".
    if (window.from || window.to) {
      const from = window.from ? sql`and p.created_at >= ${window.from.toISOString()}::timestamptz` : sql``;
      const to = window.to ? sql`and p.created_at <= ${window.to.toISOString()}::timestamptz` : sql``;
      await tx.execute(sql`
        insert into ${lines} (reconciliation_id, position, status, external_id, reference, payment_id, ledger_amount, ledger_currency)
        select ${id}, ${report.fileLines} + row_number() over (order by p.created_at, p.id), 'missingInFile',
               p.external_id, p.reference, p.id, p.amount::text, p.currency
        from ${payments} as p
        where p.merchant_id = ${merchantId} and p.livemode = ${report.livemode} and p.status = 'confirmed' ${from} ${to}
          and not exists (select 1 from ${lines} as l where l.reconciliation_id = ${id} and l.payment_id = p.id)`);
    }
    const counts = await tx
      .select({ status: lines.status, count: count() })
      .from(lines)
      .where(eq(lines.reconciliationId, id))
      .groupBy(lines.status);
    const summary: ReconciliationSummary = { matched: 0, mismatched: 0, missingInLedger: 0, missingInFile: 0, malformed: 0 };
    for (const row of counts) summary[row.status] = Number(row.count);
    await tx
      .update(reconciliations)
      .set({ status: "complete", summary, fileLines: report.fileLines, windowFrom: window.from, windowTo: window.to, updatedAt: ctx.now() })
      .where(and(eq(reconciliations.id, id), eq(reconciliations.merchantId, merchantId)));
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: { action: "reconciliation.created", targetType: "reconciliation", targetId: id, merchantId, details: { summary, fileLines: report.fileLines } },
    });
  });
}
