import { and, desc, eq, gt, isNull, or } from "drizzle-orm";
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
  const rows = await db
    .select({ ciphertext: webhookSecrets.secretCiphertext, expiresAt: webhookSecrets.expiresAt })
    .from(webhookSecrets)
    .where(
      and(
        eq(webhookSecrets.merchantId, input.merchantId),
        or(isNull(webhookSecrets.expiresAt), gt(webhookSecrets.expiresAt, input.now)),
      ),
    )
    .orderBy(desc(webhookSecrets.createdAt), desc(webhookSecrets.id));
  // Current (no expiry) first, whatever the clock says about creation order.
  rows.sort((a, b) => Number(a.expiresAt !== null) - Number(b.expiresAt !== null));
  return rows.map((row) => openSecret(input.authSecret, WEBHOOK_SECRET_PURPOSE, row.ciphertext));
}
