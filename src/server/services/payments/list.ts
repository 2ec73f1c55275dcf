import { containsPattern } from "@/server/db/like-pattern";
import { queryRows, type RawParam } from "@/server/db/raw";
import { recordStaffRead } from "../audit/record-staff-read";
import { requireMerchantScope, type MerchantScope, type ServiceContext } from "../context";
import { decodeCursor, toPage, type Page } from "../pagination";
import { validateInput } from "../validate";
import { pagePosition, pageSql, paymentFromTextRow, recentSearchSql, type PaymentTextRow } from "./payment-text-row";
import { listPaymentsInput, type ListPaymentsInput, type Payment } from "./schemas";

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

  const { conditions, params, search } = filterConditions(merchant, query, [query.limit + 1]);
  if (position) {
    // A row comparison the (merchant_id, created_at desc, id desc) index serves; the position keeps microseconds.
    params.push(position.createdAt, position.id);
    conditions.push(`(created_at, id) < ($${params.length - 1}::timestamptz, $${params.length})`);
  }
  const rows = search
    ? await searchPage(ctx, conditions, search, params, query.limit)
    : await queryRows<PaymentTextRow>(ctx.db, pageSql(conditions.join(" and ")), params);
  return toPage(ctx, scope, rows, query.limit, paymentFromTextRow, pagePosition);
}

/** How many of the newest rows (after the other filters and the cursor) a search reads before asking the trigram indexes. */
export const SEARCH_RECENT_ROWS = 5_000;

/**
 * A page of a search, in two steps (docs/dashboard.md, "Search"). First the newest SEARCH_RECENT_ROWS rows in
 * list order (an index walk, a few ms): a term many payments match (a shared prefix such as "INV-") fills the
 * page there, and the trigram indexes are slowest on exactly those terms, whose common trigrams have posting
 * lists as long as the table. Only when that window holds less than a page do the trigram indexes answer (fast
 * for the rare matches left). Either way the page is the newest matches in list order: a full page from the
 * window is the newest there are, and the second step reads every row.
 */
async function searchPage(ctx: ServiceContext, conditions: string[], search: string, params: RawParam[], limit: number): Promise<PaymentTextRow[]> {
  const recent = await queryRows<PaymentTextRow>(
    ctx.db,
    recentSearchSql(conditions.join(" and "), search, `$${params.length + 1}`),
    [...params, SEARCH_RECENT_ROWS],
  );
  if (recent.length > limit) return recent;
  return queryRows<PaymentTextRow>(ctx.db, pageSql([...conditions, search].join(" and ")), params);
}

/** The most a count goes to: beyond it the dashboard says "10,000+", and counting stays as cheap as a page. */
export const COUNT_CAP = 10_000;

/**
 * How many of the merchant's payments match the same filters as listPayments (cursor and limit aside), counted
 * up to COUNT_CAP: `{count, capped}`. The dashboard shows it as the result count beside the list.
 */
export async function countPayments({ ctx, input }: { ctx: ServiceContext; input: ListPaymentsInput }): Promise<{ count: number; capped: boolean }> {
  const merchant = requireMerchantScope(ctx);
  const query = validateInput(listPaymentsInput, input, "query");
  const { conditions, params, search } = filterConditions(merchant, query, [COUNT_CAP + 1]);
  if (search) conditions.push(search);
  const [row] = await queryRows<{ count: number }>(
    ctx.db,
    `select count(*)::int as count from (select 1 from payments where ${conditions.join(" and ")} limit $2::int) as matching`,
    params,
  );
  const count = Number(row?.count ?? 0);
  return { count: Math.min(count, COUNT_CAP), capped: count > COUNT_CAP };
}

/**
 * The WHERE conditions of a payments query: `$1` the merchant, `$2` whatever `second` holds (the limit), then the
 * mode (docs/test-mode.md; text cast to boolean: postgres.js would bind a string to a boolean parameter as false),
 * then one parameter per given filter; the search condition (`q`) separately. Every value is a parameter; the text only varies with which filters are
 * given (a bounded set of statements, each prepared once per connection).
 */
function filterConditions({ merchantId, livemode }: MerchantScope, query: ReturnType<typeof listPaymentsInput.parse>, second: RawParam[]) {
  const params: RawParam[] = [merchantId, ...second];
  const conditions = ["merchant_id = $1"];
  const where = (condition: (placeholder: string) => string, value: RawParam) => {
    params.push(value);
    conditions.push(condition(`$${params.length}`));
  };
  where((p) => `livemode = ${p}::text::boolean`, String(livemode));
  if (query.status) where((p) => `status = ${p}`, query.status);
  if (query.currency) where((p) => `currency = ${p}`, query.currency);
  if (query.reference) where((p) => `reference = ${p}`, query.reference);
  if (query.externalId) where((p) => `external_id = ${p}`, query.externalId);
  // Search: one pattern against the three ids people know a payment by, each with a trigram index (docs/dashboard.md,
  // "Search"). Kept apart from the other conditions: a page of a search applies it in two steps (searchPage).
  let search: string | undefined;
  if (query.q) {
    params.push(containsPattern(query.q));
    const p = `$${params.length}`;
    search = `(external_id ilike ${p} or reference ilike ${p} or id ilike ${p})`;
  }
  if (query.reconciled) conditions.push(query.reconciled === "true" ? "reconciled_at is not null" : "reconciled_at is null");
  if (query.createdFrom) where((p) => `created_at >= ${p}::timestamptz`, new Date(query.createdFrom).toISOString());
  if (query.createdTo) where((p) => `created_at < ${p}::timestamptz`, new Date(query.createdTo).toISOString());
  return { conditions, params, search };
}
