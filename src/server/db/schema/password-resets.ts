import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, timestamptz } from "./columns";
import { users } from "./users";

/**
 * Password reset links (docs/team-and-security.md, "Password reset"): the link carries a random token, the table
 * only its SHA-256 digest, so a database dump cannot reset anyone's password. Valid 30 minutes, once.
 */
export const passwordResets = pgTable(
  "password_resets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    usedAt: timestamptz("used_at"),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("password_resets_token_key").on(table.tokenHash), index("password_resets_user_idx").on(table.userId)],
);

export type PasswordResetRow = typeof passwordResets.$inferSelect;
