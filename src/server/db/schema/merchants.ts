import { sql } from "drizzle-orm";
import { boolean, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";
import { merchantStatuses } from "../../../lib/statuses";
export { merchantStatuses } from "../../../lib/statuses";

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
    status: text("status", { enum: merchantStatuses }).notNull().default("active"),
    /**
     * Every user of this merchant must sign in with a second factor; one without sets it up at their next sign-in
     * (docs/team-and-security.md, "Second factors"). Set by the account's owner; never shown to API clients.
     */
    requireSecondFactor: boolean("require_second_factor").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex("merchants_email_key").on(table.email)],
);

export type MerchantRow = typeof merchants.$inferSelect;
