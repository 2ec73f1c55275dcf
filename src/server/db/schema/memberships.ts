import { index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { MEMBER_ROLES } from "@/lib/roles";
import { createdAt, timestamptz, updatedAt } from "./columns";
import { merchants } from "./merchants";
import { users } from "./users";

/**
 * Who belongs to a merchant's team, and as what (docs/team-and-security.md, "Roles"). A person may belong to
 * several merchants: one row each. The role decides every dashboard call through the permission table
 * (auth/permissions.ts), read with the session (services/sessions/resolve.ts).
 */
export const memberships = pgTable(
  "memberships",
  {
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: MEMBER_ROLES }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.merchantId, table.userId] }), index("memberships_user_idx").on(table.userId)],
);

export type MembershipRow = typeof memberships.$inferSelect;

/**
 * Pending invitations to a team: the link carries a random token, the table only its SHA-256 digest (as password
 * resets). Valid 7 days, once; revoked by an owner or admin.
 */
export const invitations = pgTable(
  "invitations",
  {
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    email: text("email").notNull(),
    role: text("role", { enum: MEMBER_ROLES }).notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestamptz("expires_at").notNull(),
    acceptedAt: timestamptz("accepted_at"),
    revokedAt: timestamptz("revoked_at"),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.merchantId, table.id] }),
    // Looked up by the link's digest alone (the link names no merchant); 256 random bits never collide, so the
    // index need not be unique (unique keys of merchant-owned tables start with merchant_id).
    index("invitations_token_idx").on(table.tokenHash),
  ],
);

export type InvitationRow = typeof invitations.$inferSelect;
