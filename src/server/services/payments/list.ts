import { and, eq, gte, lt, type SQL } from "drizzle-orm";
import { afterPosition, keysetTimestamp, newestFirst } from "@/server/db/keyset";
import { payments } from "@/server/db/schema";
import { recordStaffRead } from "../audit/record-staff-read";
import { requireMerchantId, type ServiceContext } from "../context";
import { byCursorAt, decodeCursor, toPage, type Page } from "../pagination";
import { validateInput } from "../validate";
import { listPaymentsInput, toPayment, type ListPaymentsInput, type Payment } from "./schemas";

/**
 * The merchant's payments, newest first, keyset-paginated on (created_at, id): every page costs what the
 * first costs, and rows inserted while a client walks the pages neither repeat nor shift earlier ones.
 */
export async function listPayments({ ctx, input }: { ctx: ServiceContext; input: ListPaymentsInput }): Promise<Page<Payment>> {
  const merchantId = requireMerchantId(ctx);
  const query = validateInput(listPaymentsInput, input, "query");
  // The cursor is bound to this merchant's payment list: another list's or merchant's cursor is refused.
  const scope = `payments:${merchantId}`;
  const position = decodeCursor(ctx, scope, query.cursor);
  await recordStaffRead({ ctx, input: { view: "payments" } });

  // Every value is a parameter; the text only varies with which filters are given (a bounded set of
  // statements, each prepared once per connection).
  const conditions: (SQL | undefined)[] = [
    eq(payments.merchantId, merchantId),
    query.status ? eq(payments.status, query.status) : undefined,
    query.currency ? eq(payments.currency, query.currency) : undefined,
    query.reference ? eq(payments.reference, query.reference) : undefined,
    query.externalId ? eq(payments.externalId, query.externalId) : undefined,
    query.createdFrom ? gte(payments.createdAt, new Date(query.createdFrom)) : undefined,
    query.createdTo ? lt(payments.createdAt, new Date(query.createdTo)) : undefined,
    position ? afterPosition(payments.createdAt, payments.id, position) : undefined,
  ];
  const rows = await ctx.db
    .select({ payment: payments, id: payments.id, cursorAt: keysetTimestamp(payments.createdAt) })
    .from(payments)
    .where(and(...conditions))
    .orderBy(...newestFirst(payments.createdAt, payments.id))
    .limit(query.limit + 1)
    .prepare("payments_page")
    .execute();
  return toPage(ctx, scope, rows, query.limit, (row) => toPayment(row.payment), byCursorAt);
}
