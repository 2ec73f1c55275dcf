import { sql } from "drizzle-orm";
import { index, jsonb, numeric, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, livemode, timestamptz, updatedAt } from "./columns";
import { merchants } from "./merchants";
import { invoiceStatuses, invoiceStatusDetails } from "../../../lib/statuses";
export { invoiceStatuses, invoiceStatusDetails } from "../../../lib/statuses";

export type InvoiceStatus = (typeof invoiceStatuses)[number];

export type InvoiceStatusDetail = (typeof invoiceStatusDetails)[number];

/**
 * An order's request for money (docs/invoices.md). `amount_paid`/`amount_pending` are the sums of the
 * attached confirmed/pending payments, recomputed under this row's lock whenever one of them changes.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: text("id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    livemode: livemode(),
    orderId: text("order_id"),
    /** Exact decimals; read and written as strings, never floats. */
    amount: numeric("amount").notNull(),
    currency: text("currency").notNull(),
    amountPaid: numeric("amount_paid").notNull().default("0"),
    amountPending: numeric("amount_pending").notNull().default("0"),
    /** Sum of the succeeded refunds of its payments (docs/refunds.md). */
    amountRefunded: numeric("amount_refunded").notNull().default("0"),
    status: text("status", { enum: invoiceStatuses }).notNull(),
    statusDetail: text("status_detail", { enum: invoiceStatusDetails }),
    description: text("description"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    returnUrl: text("return_url"),
    expiresAt: timestamptz("expires_at").notNull(),
    paidAt: timestamptz("paid_at"),
    expiredAt: timestamptz("expired_at"),
    voidedAt: timestamptz("voided_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.merchantId, table.id] }),
    // The public checkout page knows the invoice's id only.
    index("invoices_id_idx").on(table.id),
    // One invoice per order that is not void (per mode: test orders never collide with live ones); a voided
    // one frees its orderId for a new invoice.
    uniqueIndex("invoices_merchant_order_key")
      .on(table.merchantId, table.livemode, table.orderId)
      .where(sql`${table.orderId} is not null and ${table.status} <> 'void'`),
    index("invoices_merchant_created_idx").on(table.merchantId, table.livemode, table.createdAt.desc(), table.id.desc()),
    // The expiry sweep reads only the invoices still waiting for money, soonest first.
    index("invoices_due_idx").on(table.expiresAt).where(sql`${table.status} in ('open', 'processing')`),
  ],
);

export type InvoiceRow = typeof invoices.$inferSelect;
