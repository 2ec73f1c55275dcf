import { check, jsonb, pgTable, primaryKey, smallint, text } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { createdAt, livemode } from "./columns";
import { merchants } from "./merchants";

export const paymentMethodTypes = ["bank_transfer", "crypto", "link"] as const;

/**
 * The ways to pay a merchant publishes on its invoices' checkout pages (docs/invoices.md, "Payment methods"),
 * in the merchant's order. Per mode (docs/test-mode.md): a test invoice's page shows the test-mode methods, so
 * trying the payer's flow never prints live bank details or addresses. The list is replaced whole on each save.
 * `details` holds the type's fields, validated by services/payment-methods/schemas.ts before they are written.
 * The key leads with the merchant (every merchant-owned key does); the only foreign key is the merchant's own row.
 */
export const paymentMethods = pgTable(
  "payment_methods",
  {
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    livemode: livemode(),
    position: smallint("position").notNull(),
    type: text("type", { enum: paymentMethodTypes }).notNull(),
    details: jsonb("details").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.merchantId, table.livemode, table.position] }),
    check("payment_methods_position_check", sql`${table.position} >= 0`),
  ],
);

export type PaymentMethodRow = typeof paymentMethods.$inferSelect;
