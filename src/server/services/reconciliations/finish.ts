import { and, count, eq, gte, lte } from "drizzle-orm";
import { payments, reconciliationLines, reconciliations, type ReconciliationSummary } from "@/server/db/schema";
import { insertMissingInFileLines, markDuplicateLines } from "@/server/db/sql/reconciliation-lines";
import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, type ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { MAX_MISSING_IN_FILE } from "./schemas";

/**
 * The report's last step, in one transaction once every file line is written: a payment listed again is a
 * `duplicate` mismatch, the confirmed payments created in the window that the file did not list become
 * `missingInFile` lines (db/sql/reconciliation-lines.ts: the window's payments except the lines' payment ids, in
 * SQL, nothing of the file in memory),
 * and the summary is counted and the report marked complete and audit-logged. At most MAX_MISSING_IN_FILE
 * missing payments are written (one more is how a wider window is seen): beyond that, 422
 * `reconciliation_window_too_large` and the transaction writes nothing. Every statement reads a bounded number
 * of payments, so the step stays short however many the merchant holds (a long one would hold back every event
 * stream: events/list-settled.ts).
 * `windowGiven` names the bounds the caller set (`from`, `to`); the others came from the file.
 */
export async function finishReconciliation(
  ctx: ServiceContext,
  report: {
    id: string;
    merchantId: string;
    livemode: boolean;
    fileLines: number;
    window: { from: Date | null; to: Date | null };
    windowGiven: readonly ("from" | "to")[];
  },
): Promise<void> {
  const { id, merchantId, window } = report;
  await withTransaction(ctx.db, async (tx) => {
    const lines = reconciliationLines;
    await markDuplicateLines(tx, { merchantId, id });
    // Without a bound from the file or the caller there is no window, and nothing is "missing from the file".
    if (window.from || window.to) {
      // The file lists at most `fileLines` of the window's payments: a window holding more than that plus the
      // limit has too many missing for certain. Counting that far reads a bounded number of index entries, so
      // neither this nor the set difference below reads more than ≈ 110,000 payments, whatever the merchant holds.
      const bound = report.fileLines + MAX_MISSING_IN_FILE + 1;
      const inWindow = tx
        .select({ id: payments.id })
        .from(payments)
        .where(
          and(
            eq(payments.merchantId, merchantId),
            eq(payments.livemode, report.livemode),
            eq(payments.status, "confirmed"),
            window.from ? gte(payments.createdAt, window.from) : undefined,
            window.to ? lte(payments.createdAt, window.to) : undefined,
          ),
        )
        .limit(bound)
        .as("in_window");
      const [held] = await tx.select({ n: count() }).from(inWindow);
      if (Number(held!.n) >= bound) throw windowTooLarge(report.windowGiven);
      await insertMissingInFileLines(tx, { ...report, limit: MAX_MISSING_IN_FILE + 1 });
    }
    const counts = await tx
      .select({ status: lines.status, kind: lines.kind, count: count() })
      .from(lines)
      .where(eq(lines.reconciliationId, id))
      .groupBy(lines.status, lines.kind);
    const refunds = { matched: 0, mismatched: 0, missingInLedger: 0 };
    const summary: ReconciliationSummary = { matched: 0, mismatched: 0, missingInLedger: 0, missingInFile: 0, malformed: 0, refunds };
    // Refund lines are counted apart from payment lines (docs/refunds.md, "Reconciliation").
    for (const row of counts) {
      if (row.kind === "refund" && row.status in refunds) refunds[row.status as keyof typeof refunds] = Number(row.count);
      else summary[row.status] += Number(row.count);
    }
    if (summary.missingInFile > MAX_MISSING_IN_FILE) throw windowTooLarge(report.windowGiven);
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

function windowTooLarge(given: readonly ("from" | "to")[]): ServiceError {
  const limit = MAX_MISSING_IN_FILE.toLocaleString("en-US");
  const message = `holds more than ${limit} confirmed payments that the file does not list: narrow it to the days the file settles`;
  return new ServiceError(
    "reconciliation_window_too_large",
    `A report lists at most ${limit} payments missing from the file, and this window holds more; nothing was kept. Narrow the window (from/to).`,
    { errors: given.length > 0 ? given.map((bound) => ({ path: `query.${bound}`, message: `the window ${message}` })) : [{ path: "body.settledAt", message: `the file's settledAt range ${message} (or set from/to)` }] },
  );
}
