import { and, asc, eq, gt } from "drizzle-orm";
import { reconciliationLines, reconciliations, type ReconciliationRow } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import { recordStaffRead } from "../audit/record-staff-read";
import { requireMerchantScope, type MerchantScope, type ServiceContext } from "../context";
import { NotFoundError } from "../errors";
import { validateInput } from "../validate";
import {
  getReconciliationInput,
  MAX_LINES_PER_PAGE,
  toReconciliationLine,
  toReconciliationListItem,
  type Reconciliation,
} from "./schemas";

/**
 * A kept report with one page of its lines (up to MAX_LINES_PER_PAGE, in file order, optionally one
 * status): `nextCursor` is the last line's position, to pass back as `cursor`. Another merchant's report,
 * or one still being written, is 404.
 */
export async function getReconciliation({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { id: string; status?: string; cursor?: string };
}): Promise<Reconciliation> {
  const scope = requireMerchantScope(ctx);
  const query = validateInput(getReconciliationInput, input);
  const report = await getCompleteReconciliation(ctx.reader, scope, query.id);
  await recordStaffRead({ ctx, input: { view: "reconciliations" } });
  const after = query.cursor === undefined ? 0 : Number(query.cursor);
  const rows = await ctx.reader
    .select()
    .from(reconciliationLines)
    .where(
      and(
        eq(reconciliationLines.merchantId, report.merchantId),
        eq(reconciliationLines.reconciliationId, report.id),
        gt(reconciliationLines.position, after),
        query.status ? eq(reconciliationLines.status, query.status) : undefined,
      ),
    )
    .orderBy(asc(reconciliationLines.position))
    .limit(MAX_LINES_PER_PAGE + 1);
  const page = rows.slice(0, MAX_LINES_PER_PAGE);
  const hasMore = rows.length > MAX_LINES_PER_PAGE;
  return {
    ...toReconciliationListItem(report),
    lines: page.map(toReconciliationLine),
    hasMore,
    nextCursor: hasMore ? String(page.at(-1)!.position) : null,
  };
}

/** The merchant's complete report of the mode, or 404 (another merchant's or mode's, unknown, or still processing). */
export async function getCompleteReconciliation(db: Executor, { merchantId, livemode }: MerchantScope, id: string): Promise<ReconciliationRow> {
  const [report] = await db
    .select()
    .from(reconciliations)
    .where(and(eq(reconciliations.id, id), eq(reconciliations.merchantId, merchantId), eq(reconciliations.livemode, livemode), eq(reconciliations.status, "complete")))
    .limit(1);
  if (!report) throw new NotFoundError("reconciliation");
  return report;
}
