import { Secret, TOTP } from "otpauth";

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
const PERIOD_SECONDS = 30;
/** A code of the step before or after the server's is accepted too: phones' clocks drift, people type slowly. */
const WINDOW = 1;
const ISSUER = "Merchant Payments";

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secretBase32: string, label = "account"): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: "SHA1", digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });
}

/** The `otpauth://` URI an authenticator app scans (as a QR code) to set the account up. */
export function totpUri(secretBase32: string, label: string): string {
  return totpOf(secretBase32, label).toString();
}

/**
 * The time step whose code `code` is, within the window around `now`; null when it matches none. The caller
 * refuses a step at or before the last one accepted (a replayed code).
 */
export function matchingTotpStep(secretBase32: string, code: string, now: Date): number | null {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secretBase32).validate({ token, timestamp: now.getTime(), window: WINDOW });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
}

/** The code of a time (tests, and nothing else, make codes). */
export function totpCodeAt(secretBase32: string, at: Date): string {
  return totpOf(secretBase32).generate({ timestamp: at.getTime() });
}
