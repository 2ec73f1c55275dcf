import { and, asc, eq, gte, lt, type SQL } from "drizzle-orm";
import { afterPosition, keysetTimestamp, newestFirst } from "@/server/db/keyset";
import { refunds } from "@/server/db/schema";
import { recordStaffRead } from "../audit/record-staff-read";
import { requireMerchantScope, type ServiceContext } from "../context";
import { byCursorAt, decodeCursor, toPage, type Page } from "../pagination";
import { validateInput } from "../validate";
import { listRefundsInput, toRefund, type ListRefundsInput, type Refund } from "./schemas";

/**
 * The merchant's refunds in the caller's mode, newest first, keyset-paginated on (created_at, id) like payments:
 * every page costs what the first costs. Filters: status, payment, invoice, creation window.
 */
export async function listRefunds({ ctx, input }: { ctx: ServiceContext; input: ListRefundsInput }): Promise<Page<Refund>> {
  const { merchantId, livemode } = requireMerchantScope(ctx);
  const query = validateInput(listRefundsInput, input, "query");
  // The cursor is bound to this merchant's refund list in this mode.
  const scope = `refunds:${merchantId}:${livemode ? "live" : "test"}`;
  const position = decodeCursor(ctx, scope, query.cursor);
  await recordStaffRead({ ctx, input: { view: "refunds" } });
  const conditions: (SQL | undefined)[] = [
    eq(refunds.merchantId, merchantId),
    eq(refunds.livemode, livemode),
    query.status ? eq(refunds.status, query.status) : undefined,
    query.paymentId ? eq(refunds.paymentId, query.paymentId) : undefined,
    query.invoiceId ? eq(refunds.invoiceId, query.invoiceId) : undefined,
    query.createdFrom ? gte(refunds.createdAt, new Date(query.createdFrom)) : undefined,
    query.createdTo ? lt(refunds.createdAt, new Date(query.createdTo)) : undefined,
    position ? afterPosition(refunds.createdAt, refunds.id, position) : undefined,
  ];
  const rows = await ctx.reader
    .select({ row: refunds, cursorAt: keysetTimestamp(refunds.createdAt) })
    .from(refunds)
    .where(and(...conditions))
    .orderBy(...newestFirst(refunds.createdAt, refunds.id))
    .limit(query.limit + 1);
  return toPage(
    ctx,
    scope,
    rows.map(({ row, cursorAt }) => ({ ...row, cursorAt })),
    query.limit,
    (row) => toRefund(row, ctx.env),
    byCursorAt,
  );
}

/** Every refund of one payment, oldest first: the payment's detail page. */
export async function listRefundsOfPayment({ ctx, input }: { ctx: ServiceContext; input: { paymentId: string } }): Promise<Refund[]> {
  const { merchantId, livemode } = requireMerchantScope(ctx);
  const rows = await ctx.reader
    .select()
    .from(refunds)
    .where(and(eq(refunds.merchantId, merchantId), eq(refunds.livemode, livemode), eq(refunds.paymentId, input.paymentId)))
    .orderBy(asc(refunds.createdAt), asc(refunds.id))
    .limit(100);
  return rows.map((row) => toRefund(row, ctx.env));
}
