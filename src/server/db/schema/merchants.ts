import { sql } from "drizzle-orm";
import { pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";

export const merchants = pgTable(
  "merchants",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    /** Stored lower-cased; uniqueness is on the normalised form. */
    email: text("email").notNull(),
    website: text("website"),
    webhookUrl: text("webhook_url"),
    /** Subscribed event types; the register/update verbs default it to the whole catalogue. */
    webhookEvents: text("webhook_events").array().notNull().default(sql`'{}'::text[]`),
    /** Shown on the public checkout page of every invoice (docs/invoices.md); plain text. */
    paymentInstructions: text("payment_instructions"),
    status: text("status", { enum: ["active", "suspended"] }).notNull().default("active"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex("merchants_email_key").on(table.email)],
);

export type MerchantRow = typeof merchants.$inferSelect;
