import type { Env } from "@/env";

/**
 * The WebAuthn relying party: this service as the browser sees it, from PUBLIC_BASE_URL (its host is the RP id,
 * its origin the only origin a passkey answer is accepted from). A passkey is bound to that host: changing
 * PUBLIC_BASE_URL's host makes earlier passkeys unusable (docs/team-and-security.md, "Passkeys").
 */
export function relyingParty(env: Pick<Env, "PUBLIC_BASE_URL">): { rpID: string; rpName: string; origin: string } {
  const url = new URL(env.PUBLIC_BASE_URL);
  return { rpID: url.hostname, rpName: "Merchant Payments", origin: url.origin };
}
