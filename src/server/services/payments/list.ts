import { and, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { afterPosition, newestFirst } from "@/server/db/keyset";
import { payments } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import { recordStaffRead } from "../audit/record-staff-read";
import { requireMerchantId, type ServiceContext } from "../context";
import { decodeCursor, toPage, type Page } from "../pagination";
import { parseInput } from "../parse";
import { pageColumns, pageItem, pagePosition } from "./page-row";
import { listPaymentsInput, type ListPaymentsInput, type Payment } from "./schemas";

/**
 * The merchant's payments, newest first, keyset-paginated on (created_at, id): every page costs what the
 * first costs, and rows inserted while a client walks the pages neither repeat nor shift earlier ones.
 */
export async function listPayments({ ctx, input }: { ctx: ServiceContext; input: ListPaymentsInput }): Promise<Page<Payment>> {
  const merchantId = requireMerchantId(ctx);
  const query = parseInput(listPaymentsInput, input, "query");
  // The cursor is bound to this merchant's payment list: another list's or merchant's cursor is refused.
  const scope = `payments:${merchantId}`;
  const position = decodeCursor(ctx, scope, query.cursor);
  await recordStaffRead({ ctx, input: { view: "payments" } });

  const filtered = [query.status, query.currency, query.reference, query.externalId, query.createdFrom, query.createdTo].some(
    (value) => value !== undefined,
  );
  if (!filtered) {
    // The common call (no filters): a prepared statement, built once (drizzle's query building costs more
    // CPU than PostgreSQL spends on the page).
    const statements = preparedPages(ctx.db);
    const rows = position
      ? await statements.after.execute({ merchantId, limit: query.limit + 1, createdAt: position.createdAt, id: position.id })
      : await statements.first.execute({ merchantId, limit: query.limit + 1 });
    return toPage(ctx, scope, rows, query.limit, pageItem, pagePosition);
  }

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
    .select(pageColumns)
    .from(payments)
    .where(and(...conditions))
    .orderBy(...newestFirst(payments.createdAt, payments.id))
    .limit(query.limit + 1);
  return toPage(ctx, scope, rows, query.limit, pageItem, pagePosition);
}

function buildPages(db: Executor) {
  const page = (where: SQL | undefined, name: string) =>
    db
      .select(pageColumns)
      .from(payments)
      .where(where)
      .orderBy(...newestFirst(payments.createdAt, payments.id))
      .limit(sql.placeholder("limit"))
      .prepare(name);
  const merchant = eq(payments.merchantId, sql.placeholder("merchantId"));
  return {
    first: page(merchant, "payments_first_page"),
    // The same row comparison as afterPosition(), with the position as parameters.
    after: page(
      and(merchant, sql`(${payments.createdAt}, ${payments.id}) < (${sql.placeholder("createdAt")}::timestamptz, ${sql.placeholder("id")})`),
      "payments_next_page",
    ),
  };
}

const preparedByExecutor = new WeakMap<Executor, ReturnType<typeof buildPages>>();

function preparedPages(db: Executor) {
  let statements = preparedByExecutor.get(db);
  if (!statements) {
    statements = buildPages(db);
    preparedByExecutor.set(db, statements);
  }
  return statements;
}
