import { and, desc, gt, inArray, isNull, or } from "drizzle-orm";
import { openSecret, WEBHOOK_SECRET_PURPOSE } from "@/server/crypto/secret-box";
import { webhookSecrets } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";

/** Read-back window of the previous secret after a rotation. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The merchant's signing secrets in plaintext, current first, then the previous one while it is inside its
 * rotation window. Callers use them to sign or verify and drop them: never log or return them.
 */
export async function loadSigningSecrets(
  db: Executor,
  input: { merchantId: string; now: Date; authSecret: string },
): Promise<string[]> {
  const secrets = await loadSigningSecretsOf(db, { merchantIds: [input.merchantId], now: input.now, authSecret: input.authSecret });
  return secrets.get(input.merchantId) ?? [];
}

/** `loadSigningSecrets` for several merchants in one query (the worker's claimed batch), by merchant id. */
export async function loadSigningSecretsOf(
  db: Executor,
  input: { merchantIds: readonly string[]; now: Date; authSecret: string },
): Promise<Map<string, string[]>> {
  const rows = await db
    .select({ merchantId: webhookSecrets.merchantId, ciphertext: webhookSecrets.secretCiphertext, expiresAt: webhookSecrets.expiresAt })
    .from(webhookSecrets)
    .where(
      and(
        inArray(webhookSecrets.merchantId, [...new Set(input.merchantIds)]),
        or(isNull(webhookSecrets.expiresAt), gt(webhookSecrets.expiresAt, input.now)),
      ),
    )
    .orderBy(desc(webhookSecrets.createdAt), desc(webhookSecrets.id));
  // Current (no expiry) first, whatever the clock says about creation order.
  rows.sort((a, b) => Number(a.expiresAt !== null) - Number(b.expiresAt !== null));
  const byMerchant = new Map<string, string[]>();
  for (const row of rows) {
    const secrets = byMerchant.get(row.merchantId) ?? [];
    secrets.push(...openSigningSecrets([row.ciphertext], input.authSecret));
    byMerchant.set(row.merchantId, secrets);
  }
  return byMerchant;
}

/*
 * Opened secrets, keyed by AUTH_SECRET and sealed value. Only the decryption is cached, never which secrets a
 * merchant has: that is read from the database for every attempt, so a rotation takes effect on the next one.
 * A sealed value always opens to the same secret, so an entry can never be stale. Bounded: cleared when full.
 */
const opened = new Map<string, string>();
const MAX_OPENED = 10_000;

/** Opens sealed signing secrets (the `secret_ciphertext` column), keeping their order. */
export function openSigningSecrets(ciphertexts: readonly string[], authSecret: string): string[] {
  return ciphertexts.map((ciphertext) => {
    const id = `${authSecret}\u0000${ciphertext}`;
    let secret = opened.get(id);
    if (secret === undefined) {
      secret = openSecret(authSecret, WEBHOOK_SECRET_PURPOSE, ciphertext);
      if (opened.size >= MAX_OPENED) opened.clear();
      opened.set(id, secret);
    }
    return secret;
  });
}
