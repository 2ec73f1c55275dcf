import { queryRows, type RawParam } from "@/server/db/raw";
import { recordStaffRead } from "../audit/record-staff-read";
import { requireMerchantScope, type ServiceContext } from "../context";
import { decodeCursor, toPage, type Page } from "../pagination";
import { validateInput } from "../validate";
import { pagePosition, pageSql, paymentFromTextRow, type PaymentTextRow } from "./payment-text-row";
import { listPaymentsInput, type ListPaymentsInput, type Payment } from "./schemas";

/**
 * The merchant's payments, newest first, keyset-paginated on (created_at, id): every page costs what the
 * first costs, and rows inserted while a client walks the pages neither repeat nor shift earlier ones.
 */
export async function listPayments({ ctx, input }: { ctx: ServiceContext; input: ListPaymentsInput }): Promise<Page<Payment>> {
  const { merchantId, livemode } = requireMerchantScope(ctx);
  const query = validateInput(listPaymentsInput, input, "query");
  // The cursor is bound to this merchant's payment list in this mode: another list's, merchant's or mode's cursor is refused.
  const scope = `payments:${merchantId}:${livemode ? "live" : "test"}`;
  const position = decodeCursor(ctx, scope, query.cursor);
  await recordStaffRead({ ctx, input: { view: "payments" } });

  // Every value is a parameter; the text only varies with which filters are given (a bounded set of
  // statements, each prepared once per connection).
  const params: RawParam[] = [merchantId, query.limit + 1, String(livemode)];
  const conditions = ["merchant_id = $1", "livemode = $3::text::boolean"];
  const where = (condition: (placeholder: string) => string, value: RawParam) => {
    params.push(value);
    conditions.push(condition(`$${params.length}`));
  };
  if (query.status) where((p) => `status = ${p}`, query.status);
  if (query.currency) where((p) => `currency = ${p}`, query.currency);
  if (query.reference) where((p) => `reference = ${p}`, query.reference);
  if (query.externalId) where((p) => `external_id = ${p}`, query.externalId);
  if (query.createdFrom) where((p) => `created_at >= ${p}::timestamptz`, new Date(query.createdFrom).toISOString());
  if (query.createdTo) where((p) => `created_at < ${p}::timestamptz`, new Date(query.createdTo).toISOString());
  if (position) {
    // A row comparison the (merchant_id, created_at desc, id desc) index serves; the position keeps microseconds.
    params.push(position.createdAt, position.id);
    conditions.push(`(created_at, id) < ($${params.length - 1}::timestamptz, $${params.length})`);
  }
  const rows = await queryRows<PaymentTextRow>(ctx.db, pageSql(conditions.join(" and ")), params);
  return toPage(ctx, scope, rows, query.limit, paymentFromTextRow, pagePosition);
}
