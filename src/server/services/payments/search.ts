import { and, desc, eq, ilike, or } from "drizzle-orm";
import { containsPattern } from "@/server/db/like-pattern";
import { payments } from "@/server/db/schema";
import { recordAudit } from "../audit/record";
import { livemodeOf, requireStaff, type ServiceContext } from "../context";
import { validateInput } from "../validate";
import { searchPaymentsInput, toStaffPayment, type StaffPayment } from "./schemas";

/**
 * Support staff find payments across merchants by payment id, external id or reference: its start or any
 * part of it, case-insensitive (each column has a trigram index, docs/dashboard.md "Search"), newest first; live payments only (staff act in live mode, docs/test-mode.md). The search itself is audit-logged: it reads any merchant's data.
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
  const pattern = containsPattern(query);
  const rows = await ctx.reader
    .select()
    .from(payments)
    .where(and(eq(payments.livemode, livemodeOf(ctx)), or(ilike(payments.id, pattern), ilike(payments.externalId, pattern), ilike(payments.reference, pattern))))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(limit);
  await recordAudit({
    ctx,
    input: { action: "payment.searched", targetType: "payment", merchantId: null, details: { query, results: rows.length } },
  });
  return { data: rows.map(toStaffPayment) };
}
