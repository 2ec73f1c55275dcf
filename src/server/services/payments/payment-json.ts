import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import { payments } from "@/server/db/schema";
import type { Payment } from "./schemas";

/** A timestamptz as `Date#toISOString()` writes it: UTC, milliseconds (truncated, as a JS Date truncates), `Z`. */
const isoMillis = (column: AnyColumn) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

// Every field of Payment, in toPayment()'s order: the type makes a missing or extra field a compile error, and
// tests/integration/payments-list.test.ts holds the list's items byte-identical to GET /payment/{id}.
const fields: Record<keyof Payment, SQL | AnyColumn> = {
  id: payments.id,
  externalId: payments.externalId,
  // numeric would become a JSON number (and lose digits in JS): an amount is always a decimal string.
  amount: sql`${payments.amount}::text`,
  currency: payments.currency,
  status: payments.status,
  reference: payments.reference,
  invoiceId: payments.invoiceId,
  method: payments.method,
  network: payments.network,
  metadata: payments.metadata,
  occurredAt: isoMillis(payments.occurredAt),
  confirmedAt: isoMillis(payments.confirmedAt),
  failedAt: isoMillis(payments.failedAt),
  reconciledAt: isoMillis(payments.reconciledAt),
  createdAt: isoMillis(payments.createdAt),
  updatedAt: isoMillis(payments.updatedAt),
};

/**
 * The payment as clients see it, rendered by PostgreSQL as one json value; both drivers hand it back parsed.
 * For pages of payments: mapping 20 columns of 21 rows in JS (six timestamps each parsed into a Date, then
 * formatted back) cost more CPU than the rest of the request (BENCHMARKS.md, case 2).
 */
export const paymentJson: SQL<Payment> = sql<Payment>`json_build_object(${sql.join(
  Object.entries(fields).map(([name, value]) => sql`${sql.raw(`'${name}'`)}, ${value}`),
  sql`, `,
)})`;
