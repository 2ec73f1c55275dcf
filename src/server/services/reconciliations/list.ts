import { and, desc, eq, getTableColumns } from "drizzle-orm";
import { afterPosition, keysetTimestamp } from "@/server/db/keyset";
import { reconciliations } from "@/server/db/schema";
import { recordStaffRead } from "../audit/record-staff-read";
import { requireMerchantScope, type ServiceContext } from "../context";
import { byCursorAt, decodeCursor, toPage, type Page } from "../pagination";
import { validateInput } from "../validate";
import { listReconciliationsInput, toReconciliationListItem, type ListReconciliationsInput, type ReconciliationListItem } from "./schemas";

/** The merchant's kept reports, newest first (summaries only; lines through getReconciliation). */
export async function listReconciliations({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: ListReconciliationsInput;
}): Promise<Page<ReconciliationListItem>> {
  const { merchantId, livemode } = requireMerchantScope(ctx);
  const query = validateInput(listReconciliationsInput, input);
  const scope = `reconciliations:${merchantId}:${livemode ? "live" : "test"}`;
  const position = decodeCursor(ctx, scope, query.cursor);
  await recordStaffRead({ ctx, input: { view: "reconciliations" } });
  const rows = await ctx.reader
    .select({ ...getTableColumns(reconciliations), cursorAt: keysetTimestamp(reconciliations.createdAt) })
    .from(reconciliations)
    .where(
      and(
        eq(reconciliations.merchantId, merchantId),
        eq(reconciliations.livemode, livemode),
        eq(reconciliations.status, "complete"),
        position ? afterPosition(reconciliations.createdAt, reconciliations.id, position) : undefined,
      ),
    )
    .orderBy(desc(reconciliations.createdAt), desc(reconciliations.id))
    .limit(query.limit + 1);
  return toPage(ctx, scope, rows, query.limit, ({ cursorAt: _cursorAt, ...row }) => toReconciliationListItem(row), byCursorAt);
}
