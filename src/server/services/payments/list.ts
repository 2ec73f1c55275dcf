import { containsPattern } from "@/server/db/like-pattern";
import { queryRows, type RawParam } from "@/server/db/raw";
import { recordStaffRead } from "../audit/record-staff-read";
import { requireMerchantId, type ServiceContext } from "../context";
import { decodeCursor, toPage, type Page } from "../pagination";
import { validateInput } from "../validate";
import { pagePosition, pageSql, paymentFromTextRow, type PaymentTextRow } from "./payment-text-row";
import { listPaymentsInput, type ListPaymentsInput, type Payment } from "./schemas";

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

  const { conditions, params } = filterConditions(merchantId, query, [query.limit + 1]);
  if (position) {
    // A row comparison the (merchant_id, created_at desc, id desc) index serves; the position keeps microseconds.
    params.push(position.createdAt, position.id);
    conditions.push(`(created_at, id) < ($${params.length - 1}::timestamptz, $${params.length})`);
  }
  const rows = await queryRows<PaymentTextRow>(ctx.db, pageSql(conditions.join(" and ")), params);
  return toPage(ctx, scope, rows, query.limit, paymentFromTextRow, pagePosition);
}

/** The most a count goes to: beyond it the dashboard says "10,000+", and counting stays as cheap as a page. */
export const COUNT_CAP = 10_000;

/**
 * How many of the merchant's payments match the same filters as listPayments (cursor and limit aside), counted
 * up to COUNT_CAP: `{count, capped}`. The dashboard shows it as the result count beside the list.
 */
export async function countPayments({ ctx, input }: { ctx: ServiceContext; input: ListPaymentsInput }): Promise<{ count: number; capped: boolean }> {
  const merchantId = requireMerchantId(ctx);
  const query = validateInput(listPaymentsInput, input, "query");
  const { conditions, params } = filterConditions(merchantId, query, [COUNT_CAP + 1]);
  const [row] = await queryRows<{ count: number }>(
    ctx.db,
    `select count(*)::int as count from (select 1 from payments where ${conditions.join(" and ")} limit $2::int) as matching`,
    params,
  );
  const count = Number(row?.count ?? 0);
  return { count: Math.min(count, COUNT_CAP), capped: count > COUNT_CAP };
}

/**
 * The WHERE conditions of a payments query: `$1` the merchant, `$2` whatever `second` holds (the limit), then
 * one parameter per given filter. Every value is a parameter; the text only varies with which filters are
 * given (a bounded set of statements, each prepared once per connection).
 */
function filterConditions(merchantId: string, query: ReturnType<typeof listPaymentsInput.parse>, second: RawParam[]) {
  const params: RawParam[] = [merchantId, ...second];
  const conditions = ["merchant_id = $1"];
  const where = (condition: (placeholder: string) => string, value: RawParam) => {
    params.push(value);
    conditions.push(condition(`$${params.length}`));
  };
  if (query.status) where((p) => `status = ${p}`, query.status);
  if (query.currency) where((p) => `currency = ${p}`, query.currency);
  if (query.reference) where((p) => `reference = ${p}`, query.reference);
  if (query.externalId) where((p) => `external_id = ${p}`, query.externalId);
  // Search: one pattern against the three ids people know a payment by, each with a trigram index (docs/dashboard.md, "Search").
  if (query.q) where((p) => `(external_id ilike ${p} or reference ilike ${p} or id ilike ${p})`, containsPattern(query.q));
  if (query.reconciled) conditions.push(query.reconciled === "true" ? "reconciled_at is not null" : "reconciled_at is null");
  if (query.createdFrom) where((p) => `created_at >= ${p}::timestamptz`, new Date(query.createdFrom).toISOString());
  if (query.createdTo) where((p) => `created_at < ${p}::timestamptz`, new Date(query.createdTo).toISOString());
  return { conditions, params };
}
