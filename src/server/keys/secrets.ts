/**
 * Heuristics for text that is, or may be, a secret. They err towards refusing: a false positive costs the
 * caller a clear error, a false negative could put a private key in our database.
 */

/**
 * A PEM-style armor line naming a private key, in any of its dialects (PKCS#8, PKCS#1, SEC1, OpenSSH,
 * encrypted PKCS#8, PGP, and RFC 4716's four-dash `---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----`).
 * Checked line by line with plain substring tests, not one regex over the text: a pattern like `-{4,}…`
 * backtracks quadratically on a long run of dashes (30 s for the 64 KiB a body may hold).
 */
export function containsPrivatePemLabel(text: string): boolean {
  return text.split(/\r\n|\r|\n/).some((line) => {
    const upper = line.toUpperCase();
    return upper.includes("----") && (upper.includes("BEGIN") || upper.includes("END")) && upper.includes("PRIVATE");
  });
}

/** `Private-Key:`/`priv:` in `openssl … -text` dumps, PuTTY's `Private-Lines:`, and the like. */
export function containsPrivateMarker(text: string): boolean {
  return /priv/i.test(text);
}

/** OpenSSH's one-line public key format: public, but not a format we read. */
export function isOpenSshPublicKey(text: string): boolean {
  return /^\s*(?:ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-\S+|sk-\S+)\s+AAAA/.test(text);
}

/** Seed phrases are 12–24 words (BIP-39); a bare one is a wallet's private key. */
const SEED_PHRASE_LENGTHS = new Set([12, 15, 18, 21, 24]);

/**
 * True for text holding what could be raw key material: a run of 16+ characters from the hex, base64,
 * base64url or base58 alphabets (all subsets of one class), a colon-separated hex dump, or a seed phrase.
 */
export function looksLikeRawSecret(text: string): boolean {
  const tokens = text.split(/\s+/).filter(Boolean);
  if (tokens.some((token) => /^[A-Za-z0-9+/=_-]{16,}$/.test(token) || /^(?:[0-9a-fA-F]{2}:){7,}/.test(token))) {
    return true;
  }
  return SEED_PHRASE_LENGTHS.has(tokens.length) && tokens.every((token) => /^[a-z]{3,8}$/.test(token));
}
