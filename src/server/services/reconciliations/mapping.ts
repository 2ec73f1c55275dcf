import { eq } from "drizzle-orm";
import { reconciliationMappings } from "@/server/db/schema";
import { getMerchantRow } from "../merchants/get";
import { recordAudit } from "../audit/record";
import { requireMerchantId, type ServiceContext } from "../context";
import { validateInput } from "../validate";
import { columnMapping, type ColumnMapping } from "./schemas";

/** The merchant's remembered column mapping (file column per field), or null before the first upload. */
export async function getReconciliationMapping({ ctx }: { ctx: ServiceContext }): Promise<ColumnMapping | null> {
  const merchantId = requireMerchantId(ctx);
  const [row] = await ctx.db.select().from(reconciliationMappings).where(eq(reconciliationMappings.merchantId, merchantId)).limit(1);
  return row ? (row.columns as ColumnMapping) : null;
}

/** Remembers the mapping used for an upload, so the next file of the same processor needs none (audit-logged). */
export async function saveReconciliationMapping({ ctx, input }: { ctx: ServiceContext; input: ColumnMapping }): Promise<ColumnMapping> {
  const merchantId = requireMerchantId(ctx);
  const columns = validateInput(columnMapping, input, "mapping") as Record<string, string>;
  await getMerchantRow(ctx.db, merchantId);
  const now = ctx.now();
  await ctx.db
    .insert(reconciliationMappings)
    .values({ merchantId, columns, updatedAt: now })
    .onConflictDoUpdate({ target: reconciliationMappings.merchantId, set: { columns, updatedAt: now } });
  await recordAudit({ ctx, input: { action: "reconciliation.mapping_saved", targetType: "merchant", targetId: merchantId, merchantId, details: { columns } } });
  return columns;
}
