import { and, eq, gte, ilike, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { afterPosition, keysetTimestamp, newestFirst } from "@/server/db/keyset";
import { containsPattern } from "@/server/db/like-pattern";
import { preparedOn } from "@/server/db/prepared";
import { payments } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import { recordStaffRead } from "../audit/record-staff-read";
import { requireMerchantScope, type MerchantScope, type ServiceContext } from "../context";
import { byCursorAt, decodeCursor, toPage, type Page } from "../pagination";
import { validateInput } from "../validate";
import { listPaymentsInput, paymentColumns, toPayment, type ListPaymentsInput, type Payment } from "./schemas";

type ListQuery = ReturnType<typeof listPaymentsInput.parse>;

const value = (name: string) => sql.placeholder(name);

/**
 * The list's optional filters: each a condition on one placeholder of its own name, and the value it binds.
 * Instants travel as ISO strings (a placeholder skips the column's encoder).
 */
const filters: { [K in string]: { condition: SQL; bind: (query: ListQuery) => string | undefined } } = {
  status: { condition: eq(payments.status, value("status")), bind: (query) => query.status },
  currency: { condition: eq(payments.currency, value("currency")), bind: (query) => query.currency },
  reference: { condition: eq(payments.reference, value("reference")), bind: (query) => query.reference },
  externalId: { condition: eq(payments.externalId, value("externalId")), bind: (query) => query.externalId },
  // No placeholder of their own: which of the two is given is the statement's shape; the bound value goes unused.
  reconciled: { condition: isNotNull(payments.reconciledAt), bind: (query) => (query.reconciled === "true" ? "true" : undefined) },
  unreconciled: { condition: isNull(payments.reconciledAt), bind: (query) => (query.reconciled === "false" ? "false" : undefined) },
  createdFrom: { condition: gte(payments.createdAt, value("createdFrom")), bind: (query) => isoOrUndefined(query.createdFrom) },
  createdTo: { condition: lt(payments.createdAt, value("createdTo")), bind: (query) => isoOrUndefined(query.createdTo) },
};
const isoOrUndefined = (instant: string | undefined) => (instant === undefined ? undefined : new Date(instant).toISOString());

/**
 * Search: one pattern (`q`) against the three ids people know a payment by, each with a trigram index
 * (docs/dashboard.md, "Search"). Kept apart from the other filters: a page of a search applies it in two steps
 * (listPayments).
 */
const searchCondition = or(ilike(payments.externalId, value("q")), ilike(payments.reference, value("q")), ilike(payments.id, value("q")))!;

type Search = "none" | "recent" | "everywhere";

/** The other filters' and the cursor's conditions, for one set of given filters. */
function filterConditions(given: string[], afterCursor: boolean): SQL {
  return and(
    eq(payments.merchantId, value("merchantId")),
    // The caller's mode (docs/test-mode.md): a live key never lists test payments, nor the reverse.
    eq(payments.livemode, value("livemode")),
    ...given.map((filter) => filters[filter]!.condition),
    afterCursor ? afterPosition(payments.createdAt, payments.id, { createdAt: value("afterAt"), id: value("afterId") }) : undefined,
  )!;
}

/**
 * The page statement for one set of given filters, whether a cursor is given and how it searches, built once per
 * database (db/prepared.ts: the list's benchmark target): a bounded set of statement shapes. `recent` searches only
 * the newest `window` rows that match the other filters (a subquery named like the table, so the columns read the
 * same).
 */
function pageStatement(db: Executor, given: string[], afterCursor: boolean, search: Search) {
  const name = `payments_page${given.map((filter) => `_${filter}`).join("")}${afterCursor ? "_after" : ""}${search === "none" ? "" : `_q_${search}`}`;
  const columns = { ...paymentColumns, cursorAt: keysetTimestamp(payments.createdAt) };
  return preparedOn(db, name, () => {
    const conditions = filterConditions(given, afterCursor);
    const page =
      search === "recent"
        ? db
            .select(columns)
            .from(db.select().from(payments).where(conditions).orderBy(...newestFirst(payments.createdAt, payments.id)).limit(value("window")).as("payments"))
            .where(searchCondition)
        : db
            .select(columns)
            .from(payments)
            .where(search === "everywhere" ? and(conditions, searchCondition) : conditions);
    return page.orderBy(...newestFirst(payments.createdAt, payments.id)).limit(value("limit"));
  });
}

/** The values of the given filters (and their names, in the filter table's order). */
function bindFilters(query: ListQuery, { merchantId, livemode }: MerchantScope) {
  const values: Record<string, unknown> = { merchantId, livemode };
  const given: string[] = [];
  for (const [filter, { bind }] of Object.entries(filters)) {
    const bound = bind(query);
    if (bound === undefined) continue;
    given.push(filter);
    values[filter] = bound;
  }
  if (query.q) values.q = containsPattern(query.q);
  return { values, given };
}

/**
 * The merchant's payments, newest first, keyset-paginated on (created_at, id): every page costs what the
 * first costs, and rows inserted while a client walks the pages neither repeat nor shift earlier ones.
 */
export async function listPayments({ ctx, input }: { ctx: ServiceContext; input: ListPaymentsInput }): Promise<Page<Payment>> {
  const merchant = requireMerchantScope(ctx);
  const query = validateInput(listPaymentsInput, input, "query");
  // The cursor is bound to this merchant's payment list in this mode: another list's, merchant's or mode's cursor is refused.
  const scope = `payments:${merchant.merchantId}:${merchant.livemode ? "live" : "test"}`;
  const position = decodeCursor(ctx, scope, query.cursor);
  await recordStaffRead({ ctx, input: { view: "payments" } });

  const { values, given } = bindFilters(query, merchant);
  Object.assign(values, { limit: query.limit + 1, window: SEARCH_RECENT_ROWS });
  if (position) Object.assign(values, { afterAt: position.createdAt, afterId: position.id });
  const afterCursor = position !== null;
  let rows = await pageStatement(ctx.reader, given, afterCursor, query.q ? "recent" : "none").execute(values);
  if (query.q && rows.length <= query.limit) rows = await pageStatement(ctx.reader, given, afterCursor, "everywhere").execute(values);
  return toPage(ctx, scope, rows, query.limit, toPayment, byCursorAt);
}

/** How many of the newest rows (after the other filters and the cursor) a search reads before asking the trigram indexes. */
export const SEARCH_RECENT_ROWS = 5_000;

/*
 * Why a search has two steps (docs/dashboard.md, "Search"): first the newest SEARCH_RECENT_ROWS rows in list order
 * (an index walk, a few ms): a term many payments match (a shared prefix such as "INV-") fills the page there, and
 * the trigram indexes are slowest on exactly those terms, whose common trigrams have posting lists as long as the
 * table. Only when that window holds less than a page do the trigram indexes answer (fast for the rare matches
 * left). Either way the page is the newest matches in list order: a full page from the window is the newest there
 * are, and the second step reads every row.
 */

/** The most a count goes to: beyond it the dashboard says "10,000+", and counting stays as cheap as a page. */
export const COUNT_CAP = 10_000;

/**
 * How many of the merchant's payments match the same filters as listPayments (cursor and limit aside), counted
 * up to COUNT_CAP: `{count, capped}`. The dashboard shows it as the result count beside the list.
 */
export async function countPayments({ ctx, input }: { ctx: ServiceContext; input: ListPaymentsInput }): Promise<{ count: number; capped: boolean }> {
  const query = validateInput(listPaymentsInput, input, "query");
  const { values, given } = bindFilters(query, requireMerchantScope(ctx));
  const conditions = filterConditions(given, false);
  const matching = ctx.reader
    .select({ one: sql`1` })
    .from(payments)
    .where(query.q ? and(conditions, searchCondition) : conditions)
    .limit(value("cap"))
    .as("matching");
  const [row] = await ctx.reader
    .select({ count: sql<number>`count(*)::int` })
    .from(matching)
    .prepare("")
    .execute({ ...values, cap: COUNT_CAP + 1 });
  const count = Number(row?.count ?? 0);
  return { count: Math.min(count, COUNT_CAP), capped: count > COUNT_CAP };
}
