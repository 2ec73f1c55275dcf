import { sql } from "drizzle-orm";
import { index, jsonb, numeric, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, livemode, timestamptz, updatedAt } from "./columns";
import { merchants } from "./merchants";
import { paymentRefundStatuses, paymentStatuses } from "../../../lib/statuses";
export { paymentStatuses } from "../../../lib/statuses";

export type PaymentStatus = (typeof paymentStatuses)[number];

/** How much of a payment has gone back (docs/refunds.md): by its succeeded refunds. */
export const refundStates = paymentRefundStatuses;
export type RefundState = (typeof refundStates)[number];

export const payments = pgTable(
  "payments",
  {
    id: text("id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    livemode: livemode(),
    externalId: text("external_id").notNull(),
    /** Exact decimal; read and written as a string, never a float. */
    amount: numeric("amount").notNull(),
    currency: text("currency").notNull(),
    status: text("status", { enum: paymentStatuses }).notNull(),
    reference: text("reference"),
    invoiceId: text("invoice_id"),
    method: text("method"),
    network: text("network"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    occurredAt: timestamptz("occurred_at"),
    confirmedAt: timestamptz("confirmed_at"),
    failedAt: timestamptz("failed_at"),
    reconciledAt: timestamptz("reconciled_at"),
    reconciledBy: text("reconciled_by"),
    reconciliationNote: text("reconciliation_note"),
    /** Sum of the succeeded refunds: each adds its amount when it succeeds, under this row's lock (db/sql/refunds.ts). */
    amountRefunded: numeric("amount_refunded").notNull().default("0"),
    refundStatus: text("refund_status", { enum: refundStates }).notNull().default("none"),
    /**
     * Sum of its refunds that still hold part of it (requires_action, pending, succeeded): what "never more than was
     * paid" checks, raised by the conditional UPDATE that records a refund and lowered when one fails or is canceled,
     * under this row's lock (services/refunds/held.ts). Internal: never in the API.
     */
    amountHeld: numeric("amount_held").notNull().default("0"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.merchantId, table.id] }),
    // A payment by its id alone: staff lookups name no merchant.
    index("payments_id_idx").on(table.id),
    uniqueIndex("payments_merchant_external_key").on(table.merchantId, table.livemode, table.externalId),
    // Keyset pagination, newest first: (created_at, id) within a merchant.
    index("payments_merchant_created_idx").on(table.merchantId, table.livemode, table.createdAt.desc(), table.id.desc()),
    // Statistics: an index-only scan of a merchant's date range with everything the aggregation reads
    // (≈ 2× faster than the keyset index plus heap reads at 100k payments; bench/payments-stats.ts).
    index("payments_merchant_created_stats_idx").on(
      table.merchantId,
      table.livemode,
      table.createdAt,
      table.status,
      table.currency,
      table.amount,
    ),
    // The same, by when the payment happened (`occurredAt`, else creation): imported history spreads over its real days.
    index("payments_merchant_occurred_stats_idx").on(
      table.merchantId,
      table.livemode,
      sql`coalesce(${table.occurredAt}, ${table.createdAt})`,
      table.status,
      table.currency,
      table.amount,
    ),
    index("payments_merchant_status_currency_idx").on(table.merchantId, table.livemode, table.status, table.currency),
    // An invoice's attached payments (their sums are recomputed on every change).
    index("payments_merchant_invoice_idx").on(table.merchantId, table.invoiceId),
    index("payments_merchant_reference_idx").on(table.merchantId, table.reference),
    index("payments_reference_idx").on(table.reference),
    index("payments_external_idx").on(table.externalId),
    // Search by prefix or substring (`ILIKE '%…%'`, docs/dashboard.md, "Search"): trigram indexes (pg_trgm).
    index("payments_external_trgm_idx").using("gin", table.externalId.op("gin_trgm_ops")),
    index("payments_reference_trgm_idx").using("gin", table.reference.op("gin_trgm_ops")),
    index("payments_id_trgm_idx").using("gin", table.id.op("gin_trgm_ops")),
  ],
);

export type PaymentRow = typeof payments.$inferSelect;
