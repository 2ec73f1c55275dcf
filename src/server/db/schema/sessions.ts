import { sql } from "drizzle-orm";
import { index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, timestamptz } from "./columns";
import { merchants } from "./merchants";
import { users } from "./users";

/**
 * Why a session ended early: signed out in its own tab, a password change or reset, ended from another session
 * of the same user (the sessions page: one, or "all others"). The column is text, so a new reason is a one-line
 * change and no migration.
 */
export const SESSION_REVOKE_REASONS = ["signed_out", "password_changed", "password_reset", "signed_out_elsewhere", "removed_from_team"] as const;
export type SessionRevokeReason = (typeof SESSION_REVOKE_REASONS)[number];

/**
 * Dashboard sign-ins as server-side facts (docs/dashboard.md, "Sessions"). The session cookie (a next-auth JWT)
 * names one row; a request is served only while that row is live: not revoked, not expired, its user there.
 * Sessions belong to users, not to a merchant (a person may belong to several merchants in round 3), so the
 * merchant-first key rule of merchant-owned tables does not apply.
 */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The merchant a merchant's user acts for in this session (the switcher changes it); null for staff. */
    merchantId: text("merchant_id").references(() => merchants.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    /** Moved forward at most once a minute (services/sessions/touch.ts), not on every request. */
    lastSeenAt: timestamptz("last_seen_at").notNull(),
    /** The client address and browser at sign-in, for the user's own list of sessions. */
    ip: text("ip"),
    userAgent: text("user_agent"),
    expiresAt: timestamptz("expires_at").notNull(),
    revokedAt: timestamptz("revoked_at"),
    revokeReason: text("revoke_reason", { enum: SESSION_REVOKE_REASONS }),
    /**
     * A staff session's read-only "view as merchant" grant (docs/team-and-security.md, "Viewing as a merchant"): the
     * merchant and when it ends (at most an hour after it began), the reason given; cleared by Stop.
     */
    viewAsMerchantId: text("view_as_merchant_id"),
    viewAsUntil: timestamptz("view_as_until"),
    viewAsReason: text("view_as_reason"),
  },
  (table) => [
    // "End every session of this user" and "list my sessions" read only the live ones.
    index("sessions_user_live_idx").on(table.userId).where(sql`${table.revokedAt} is null`),
    // Removal from a team ends the person's sessions acting for that merchant.
    index("sessions_merchant_live_idx").on(table.merchantId).where(sql`${table.revokedAt} is null`),
  ],
);

export type SessionRow = typeof sessions.$inferSelect;
