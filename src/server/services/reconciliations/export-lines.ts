import { and, asc, eq, gt } from "drizzle-orm";
import { reconciliationLines } from "@/server/db/schema";
import { recordAudit } from "../audit/record";
import { requireMerchantScope, type ServiceContext } from "../context";
import { getCompleteReconciliation } from "./get";
import { toReconciliationLine, type ReconciliationLine } from "./schemas";

const PAGE = 1000;

/**
 * A report's lines for a CSV export, a page at a time in file order (an export of 100,000 lines holds one
 * page). Checks the report is the merchant's (404 otherwise) and audit-logs the export before the first line.
 */
export async function exportReconciliationLines({ ctx, input }: { ctx: ServiceContext; input: { id: string } }): Promise<AsyncGenerator<ReconciliationLine[]>> {
  const scope = requireMerchantScope(ctx);
  const { merchantId } = scope;
  const report = await getCompleteReconciliation(ctx.reader, scope, input.id);
  await recordAudit({ ctx, input: { action: "reconciliation.exported", targetType: "reconciliation", targetId: report.id, merchantId } });
  return pages(ctx, merchantId, report.id);
}

async function* pages(ctx: ServiceContext, merchantId: string, id: string): AsyncGenerator<ReconciliationLine[]> {
  let after = 0;
  for (;;) {
    const rows = await ctx.reader
      .select()
      .from(reconciliationLines)
      .where(and(eq(reconciliationLines.merchantId, merchantId), eq(reconciliationLines.reconciliationId, id), gt(reconciliationLines.position, after)))
      .orderBy(asc(reconciliationLines.position))
      .limit(PAGE);
    if (rows.length === 0) return;
    yield rows.map(toReconciliationLine);
    after = rows.at(-1)!.position;
    if (rows.length < PAGE) return;
  }
}
