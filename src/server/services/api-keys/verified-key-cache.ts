/**
 * Verified API keys, cached in-process for a few seconds so a busy key costs one database lookup per
 * TTL instead of one per request. The TTL bounds how long a revocation made by another process can go
 * unnoticed here; revocations made by this process evict the key at once (`forgetKey`).
 */
export const VERIFIED_KEY_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

export interface VerifiedKey {
  keyId: string;
  merchantId: string;
  /** The key's mode: false for an `sk_test_` key (docs/test-mode.md). */
  livemode: boolean;
  /** A restricted key's granted permissions, computed once from its scopes; absent for a secret key. */
  restrictedTo?: ReadonlySet<string>;
  /** Set on a rolled key: it stops working then, even while cached. */
  expiresAt: Date | null;
  /** As last written to the database; drives the once-a-minute `lastUsedAt` update. */
  lastUsedAt: Date | null;
}

interface Entry extends VerifiedKey {
  cachedUntil: number;
}

export class VerifiedKeyCache {
  private readonly entries = new Map<string, Entry>();

  /** The key under this digest, if verified less than a TTL ago and not expired since. */
  get(digest: string, now: Date): VerifiedKey | undefined {
    const entry = this.entries.get(digest);
    if (!entry) return undefined;
    const stale = entry.cachedUntil <= now.getTime() || (entry.expiresAt !== null && entry.expiresAt <= now);
    if (stale) {
      this.entries.delete(digest);
      return undefined;
    }
    return entry;
  }

  set(digest: string, key: VerifiedKey, now: Date): VerifiedKey {
    // A Map iterates in insertion order: dropping the first entry drops the oldest.
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    const entry = { ...key, cachedUntil: now.getTime() + VERIFIED_KEY_TTL_MS };
    this.entries.set(digest, entry);
    return entry;
  }

  /** Called after a key is revoked or rolled, so this process stops accepting it immediately. */
  forgetKey(keyId: string): void {
    for (const [digest, entry] of this.entries) {
      if (entry.keyId === keyId) this.entries.delete(digest);
    }
  }
}

/** The process's cache. Digests are unique, so several runtimes (tests) can share it safely. */
export const verifiedKeys = new VerifiedKeyCache();
