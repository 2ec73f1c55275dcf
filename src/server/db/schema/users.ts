import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, timestamptz, updatedAt } from "./columns";
import { STAFF_ROLES } from "@/lib/roles";
import { merchants } from "./merchants";

/** Dashboard logins: a merchant's own users, or support staff (no merchant). */
export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    /** argon2id PHC string; never selected outside the login/password verbs. */
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: ["merchant", "staff"] }).notNull(),
    /**
     * A merchant's user: the merchant a sign-in starts in (the one they joined first, or switched to last). What
     * they may do there, and in any other merchant, is their membership's role (memberships).
     */
    merchantId: text("merchant_id").references(() => merchants.id, { onDelete: "cascade" }),
    /** Support staff's role in the console (null for a merchant's users). */
    staffRole: text("staff_role", { enum: STAFF_ROLES }),
    name: text("name"),
    lastLoginAt: timestamptz("last_login_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex("users_email_key").on(table.email),
    index("users_merchant_idx").on(table.merchantId),
  ],
);

export type UserRow = typeof users.$inferSelect;
