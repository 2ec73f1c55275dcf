import { and, eq, gt, gte, inArray, lt, lte, or, type SQL } from "drizzle-orm";
import { afterPosition, keysetTimestamp, newestFirst } from "@/server/db/keyset";
import { invoices, type InvoiceStatus } from "@/server/db/schema";
import { recordStaffRead } from "../audit/record-staff-read";
import { requireMerchantScope, type ServiceContext } from "../context";
import { byCursorAt, decodeCursor, toPage, type Page } from "../pagination";
import { validateInput } from "../validate";
import { listInvoicesInput, toInvoice, type Invoice, type ListInvoicesInput } from "./schemas";
import { effectiveInvoice } from "./status";

const WAITING: InvoiceStatus[] = ["open", "processing"];

/** The filter for a status as readers see it: an invoice past `expiresAt` that the sweep has not reached is `expired`. */
function statusCondition(status: InvoiceStatus, now: Date): SQL | undefined {
  if (status === "open" || status === "processing") return and(eq(invoices.status, status), gt(invoices.expiresAt, now));
  if (status === "expired") return or(eq(invoices.status, "expired"), and(inArray(invoices.status, WAITING), lte(invoices.expiresAt, now)));
  return eq(invoices.status, status);
}

/** The merchant's invoices, newest first, keyset-paginated on (created_at, id) with the shared signed cursors. */
export async function listInvoices({ ctx, input }: { ctx: ServiceContext; input: ListInvoicesInput }): Promise<Page<Invoice>> {
  const { merchantId, livemode } = requireMerchantScope(ctx);
  const query = validateInput(listInvoicesInput, input, "query");
  const scope = `invoices:${merchantId}:${livemode ? "live" : "test"}`;
  const position = decodeCursor(ctx, scope, query.cursor);
  await recordStaffRead({ ctx, input: { view: "invoices" } });
  const now = ctx.now();

  const rows = await ctx.reader
    .select({ invoice: invoices, cursorAt: keysetTimestamp(invoices.createdAt) })
    .from(invoices)
    .where(
      and(
        eq(invoices.merchantId, merchantId),
        eq(invoices.livemode, livemode),
        query.status ? statusCondition(query.status, now) : undefined,
        query.orderId ? eq(invoices.orderId, query.orderId) : undefined,
        query.createdFrom ? gte(invoices.createdAt, new Date(query.createdFrom)) : undefined,
        query.createdTo ? lt(invoices.createdAt, new Date(query.createdTo)) : undefined,
        position ? afterPosition(invoices.createdAt, invoices.id, position) : undefined,
      ),
    )
    .orderBy(...newestFirst(invoices.createdAt, invoices.id))
    .limit(query.limit + 1);
  return toPage(
    ctx,
    scope,
    rows.map((row) => ({ ...row, id: row.invoice.id })),
    query.limit,
    (row) => toInvoice(effectiveInvoice(row.invoice, now), ctx.env.PUBLIC_BASE_URL),
    byCursorAt,
  );
}
