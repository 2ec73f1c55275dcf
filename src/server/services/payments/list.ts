import { and, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { afterPosition, keysetTimestamp, newestFirst } from "@/server/db/keyset";
import { preparedOn } from "@/server/db/prepared";
import { payments } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import { recordStaffRead } from "../audit/record-staff-read";
import { requireMerchantId, type ServiceContext } from "../context";
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
  createdFrom: { condition: gte(payments.createdAt, value("createdFrom")), bind: (query) => isoOrUndefined(query.createdFrom) },
  createdTo: { condition: lt(payments.createdAt, value("createdTo")), bind: (query) => isoOrUndefined(query.createdTo) },
};
const isoOrUndefined = (instant: string | undefined) => (instant === undefined ? undefined : new Date(instant).toISOString());

/**
 * The page statement for one set of given filters (and whether a cursor is given), prepared once per database:
 * a bounded set of statement shapes, none built per request.
 */
function pageStatement(db: Executor, given: string[], afterCursor: boolean) {
  const name = `payments_page${given.map((filter) => `_${filter}`).join("")}${afterCursor ? "_after" : ""}`;
  return preparedOn(db, name, () =>
    db
      .select({ ...paymentColumns, cursorAt: keysetTimestamp(payments.createdAt) })
      .from(payments)
      .where(
        and(
          eq(payments.merchantId, value("merchantId")),
          ...given.map((filter) => filters[filter]!.condition),
          afterCursor ? afterPosition(payments.createdAt, payments.id, { createdAt: value("afterAt"), id: value("afterId") }) : undefined,
        ),
      )
      .orderBy(...newestFirst(payments.createdAt, payments.id))
      .limit(value("limit"))
      .prepare(name),
  );
}

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

  const values: Record<string, unknown> = { merchantId, limit: query.limit + 1 };
  const given: string[] = [];
  for (const [filter, { bind }] of Object.entries(filters)) {
    const bound = bind(query);
    if (bound === undefined) continue;
    given.push(filter);
    values[filter] = bound;
  }
  if (position) Object.assign(values, { afterAt: position.createdAt, afterId: position.id });
  const rows = await pageStatement(ctx.db, given, position !== null).execute(values);
  return toPage(ctx, scope, rows, query.limit, toPayment, byCursorAt);
}
