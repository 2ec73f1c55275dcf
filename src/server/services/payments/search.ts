import { desc, eq, or } from "drizzle-orm";
import { payments } from "@/server/db/schema";
import { recordAudit } from "../audit/record";
import { requireStaff, type ServiceContext } from "../context";
import { validateInput } from "../validate";
import { searchPaymentsInput, toStaffPayment, type StaffPayment } from "./schemas";

/**
 * Support staff find payments across merchants by payment id, external id or reference (exact matches,
 * each served by its own index), newest first. The search itself is audit-logged: it reads any merchant's data.
 */
export async function searchPayments({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { query: string; limit?: number };
}): Promise<{ data: StaffPayment[] }> {
  requireStaff(ctx);
  const { query, limit } = validateInput(searchPaymentsInput, input);
  const rows = await ctx.db
    .select()
    .from(payments)
    .where(or(eq(payments.id, query), eq(payments.externalId, query), eq(payments.reference, query)))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(limit);
  await recordAudit({
    ctx,
    input: { action: "payment.searched", targetType: "payment", merchantId: null, details: { query, results: rows.length } },
  });
  return { data: rows.map(toStaffPayment) };
}
