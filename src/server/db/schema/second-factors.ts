import { bigint, boolean, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { createdAt, timestamptz } from "./columns";
import { users } from "./users";

/**
 * A user's TOTP authenticator (RFC 6238; docs/team-and-security.md, "Second factors"). One per user: enrolling
 * again replaces an unconfirmed one; a confirmed one is removed before another is set up.
 */
export const totpFactors = pgTable("totp_factors", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** The shared secret, sealed with AUTH_SECRET (crypto/secret-box.ts): a database dump alone cannot make codes. */
  secretSealed: text("secret_sealed").notNull(),
  /** Null while enrolling: the factor counts only once a code from the app has confirmed it. */
  confirmedAt: timestamptz("confirmed_at"),
  /** The 30-second time step of the last code accepted: a code of that step or an earlier one is refused (replay). */
  lastUsedStep: bigint("last_used_step", { mode: "number" }),
  createdAt: createdAt(),
});

/** Ten one-time recovery codes per TOTP enrolment, stored as SHA-256 digests (high-entropy: no slow hash needed). */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamptz("used_at"),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("recovery_codes_user_code_key").on(table.userId, table.codeHash)],
);

/** WebAuthn credentials (passkeys) a user registered: what @simplewebauthn/server needs to verify a sign-in. */
export const passkeys = pgTable(
  "passkeys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The authenticator's credential id, base64url: how a sign-in names the passkey. */
    credentialId: text("credential_id").notNull(),
    /** The COSE public key, base64url. Public: verifying needs no secret. */
    publicKey: text("public_key").notNull(),
    /** The signature counter last seen (0 for authenticators that keep none, as most synced passkeys do). */
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: text("transports").array().notNull().default(sql`'{}'::text[]`),
    backedUp: boolean("backed_up").notNull().default(false),
    /** The user's name for it ("Laptop"), shown in their list. */
    name: text("name").notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamptz("last_used_at"),
  },
  (table) => [uniqueIndex("passkeys_credential_key").on(table.credentialId), index("passkeys_user_idx").on(table.userId)],
);

/**
 * What a sign-in or a passkey registration has proven so far, between two requests (docs/team-and-security.md,
 * "Signing in"). The browser holds a random token (a cookie, or the registration's answer); only its SHA-256
 * digest is stored. One-time (`usedAt`), short-lived, and refused after a few wrong second-factor codes.
 */
export const AUTH_CHALLENGE_PURPOSES = [
  /** The password was right; `needs` says what comes before a session. */
  "sign_in",
  /** "Sign in with a passkey": no user yet, the passkey names them. */
  "passkey_sign_in",
  /** A signed-in user adding a passkey. */
  "passkey_registration",
] as const;
export const SIGN_IN_NEEDS = ["nothing", "second_factor", "enrolment"] as const;
export type SignInNeeds = (typeof SIGN_IN_NEEDS)[number];

export const authChallenges = pgTable(
  "auth_challenges",
  {
    id: text("id").primaryKey(),
    purpose: text("purpose", { enum: AUTH_CHALLENGE_PURPOSES }).notNull(),
    tokenHash: text("token_hash").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    needs: text("needs", { enum: SIGN_IN_NEEDS }),
    /** The WebAuthn challenge handed to the browser, base64url (passkey sign-in and registration). */
    webauthnChallenge: text("webauthn_challenge"),
    failedAttempts: integer("failed_attempts").notNull().default(0),
    expiresAt: timestamptz("expires_at").notNull(),
    usedAt: timestamptz("used_at"),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("auth_challenges_token_key").on(table.tokenHash), index("auth_challenges_expires_idx").on(table.expiresAt)],
);

export type TotpFactorRow = typeof totpFactors.$inferSelect;
export type PasskeyRow = typeof passkeys.$inferSelect;
export type AuthChallengeRow = typeof authChallenges.$inferSelect;
