import { openSecret, WEBHOOK_SECRET_PURPOSE } from "@/server/crypto/secret-box";
import { sealedSigningSecretsOf } from "@/server/db/sql/signing-secrets";
import type { Executor } from "@/server/db/types";

/** Read-back window of the previous secret after a rotation. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * An endpoint's signing secrets in plaintext, current first, then the previous one while it is inside its
 * rotation window. Callers use them to sign or verify and drop them: never log or return them.
 */
export async function loadSigningSecrets(
  db: Executor,
  input: { endpointId: string; now: Date; authSecret: string },
): Promise<string[]> {
  const secrets = await loadSigningSecretsOf(db, { endpointIds: [input.endpointId], now: input.now, authSecret: input.authSecret });
  return secrets.get(input.endpointId) ?? [];
}

/** `loadSigningSecrets` for several endpoints in one query (the worker's claimed batch), by endpoint id. */
export async function loadSigningSecretsOf(
  db: Executor,
  input: { endpointIds: readonly string[]; now: Date; authSecret: string },
): Promise<Map<string, string[]>> {
  const sealed = await sealedSigningSecretsOf(db, input.endpointIds, input.now);
  return new Map([...sealed].map(([endpointId, ciphertexts]) => [endpointId, openSigningSecrets(ciphertexts, input.authSecret)]));
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
