import type { KeysetPosition } from "@/lib/cursor";
import { isoMicrosFromUtcText, isoMillisFromUtcText } from "@/server/db/utc-text";
import { renderPayment, type Payment, type PaymentColumns } from "./schemas";

/**
 * Payments read for GET /payment and GET /payment/{id} in hand-written SQL, for cheap rendering
 * (docs/decisions.md, "The two payment reads are hand-written SQL"):
 * - timestamps as PostgreSQL's UTC text, sliced into ISO strings (db/utc-text.ts): no `to_char`, no `Date`s;
 * - the amount as text (numeric would become a JSON number and lose digits);
 * - columns named as the row type's fields, so rows need no per-column mapping (drizzle's cost more CPU
 *   than the rest of the list).
 * tests/integration/payments-list.test.ts holds what these render byte-identical to `toPayment`, which renders
 * payments everywhere else (confirm's answer, webhook events).
 */
const utc = (column: string, field: keyof Payment) => `(${column} at time zone 'UTC')::text as "${field}"`;

const PAYMENT_COLUMNS = [
  "id",
  `external_id as "externalId"`,
  "amount::text as amount",
  "currency",
  "status",
  "reference",
  `invoice_id as "invoiceId"`,
  "method",
  "network",
  "metadata",
  utc("occurred_at", "occurredAt"),
  utc("confirmed_at", "confirmedAt"),
  utc("failed_at", "failedAt"),
  utc("reconciled_at", "reconciledAt"),
  utc("created_at", "createdAt"),
  utc("updated_at", "updatedAt"),
].join(", ");

/**
 * Up to `$2` payments matching `where` (which names the merchant as `$1` and the mode as `$3`, text: raw.ts binds strings), newest first. ORDER BY names the
 * table's columns: the output columns `createdAt` etc. are text, and sorting by them would sort every row.
 * `nulls last` matches the index's declared order (db/keyset.ts `newestFirst`).
 */
export function pageSql(where: string): string {
  return `select ${PAYMENT_COLUMNS} from payments where ${where}
    order by payments.created_at desc nulls last, payments.id desc nulls last limit $2::int`;
}

/**
 * Up to `$2` payments matching `search` among the newest `window` rows that match `where`, newest first: the
 * first step of a search (services/payments/list.ts, searchPage). The inner walk is the keyset index's order.
 */
export function recentSearchSql(where: string, search: string, window: string): string {
  return `select ${PAYMENT_COLUMNS} from (select * from payments where ${where}
      order by payments.created_at desc nulls last, payments.id desc nulls last limit ${window}::int) as payments
    where ${search} order by payments.created_at desc nulls last, payments.id desc nulls last limit $2::int`;
}

/** One payment by id (`$1`), only the merchant's own (`$2`) in the caller's mode (`$3`: "true" or "false", cast through text: postgres.js would bind a string to a boolean parameter as false). */
export const PAYMENT_BY_ID_SQL = `select ${PAYMENT_COLUMNS} from payments where id = $1 and merchant_id = $2 and livemode = $3::text::boolean`;

/** A row of PAYMENT_COLUMNS: the payment's columns, the timestamps as PostgreSQL's UTC text. */
export type PaymentTextRow = PaymentColumns<string> & Record<string, unknown>;

/** The row's keyset position: its created time with every microsecond (db/keyset.ts), and its id. */
export function pagePosition(row: PaymentTextRow): KeysetPosition {
  return { createdAt: isoMicrosFromUtcText(row.createdAt), id: row.id };
}

/** The row as clients see the payment (both drivers hand `metadata`, jsonb, back parsed). */
export function paymentFromTextRow(row: PaymentTextRow): Payment {
  return renderPayment(row, isoMillisFromUtcText);
}
