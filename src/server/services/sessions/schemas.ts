import type { SessionUser } from "../users/session-user";

/** A session lasts 12 hours from sign-in (the cookie says the same: auth/config.ts). */
export const SESSION_LIFETIME_MS = 12 * 3_600_000;

/** `lastSeenAt` moves at most this often: a write a minute per active session, not one per request. */
export const TOUCH_INTERVAL_MS = 60_000;

/** Stored lengths: a User-Agent header is the client's to make as long as it likes. */
export const MAX_USER_AGENT = 512;
export const MAX_IP = 64;

/** A live session and the user it signs in, as they are now (role and merchant from the database). */
export interface ResolvedSession {
  id: string;
  user: SessionUser;
  lastSeenAt: Date;
  expiresAt: Date;
}
