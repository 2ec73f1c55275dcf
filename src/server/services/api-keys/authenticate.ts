import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { apiKeyDigest, isWellFormedApiKey } from "@/server/crypto/api-key-format";
import { verifiedKeys, type VerifiedKey } from "./verified-key-cache";
import { grantedPermissions } from "@/lib/restricted-key-scopes";
import { preparedOn } from "@/server/db/prepared";
import { apiKeys, merchants } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";

/** `lastUsedAt` is kept to the minute: at most one write a minute per key, never one per request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

// The statement every authenticated request may run (a cache miss): built once per database.
const activeKeyByDigest = (db: Executor) =>
  db
    .select({ keyId: apiKeys.id, merchantId: apiKeys.merchantId, livemode: apiKeys.livemode, scopes: apiKeys.scopes, expiresAt: apiKeys.expiresAt, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .innerJoin(merchants, eq(merchants.id, apiKeys.merchantId))
    .where(
      and(
        eq(apiKeys.digest, sql.placeholder("digest")),
        isNull(apiKeys.revokedAt),
        or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`${sql.placeholder("now")}::timestamptz`)),
        eq(merchants.status, "active"),
      ),
    )
    .limit(1);

/**
 * The merchant, key, mode (docs/test-mode.md) and, for a restricted key, granted permissions (from its scopes) an API
 * key stands for, or one identical `invalid_api_key` whatever is wrong with it (malformed, unknown, revoked, expired,
 * merchant inactive), so the answer is no oracle for which check failed.
 * Verified keys are cached for a few seconds (verified-key-cache.ts); use is recorded at most once a minute.
 */
export async function authenticateApiKey({ ctx, input }: { ctx: ServiceContext; input: { key: string } }) {
  if (!isWellFormedApiKey(input.key)) throw invalidApiKey();
  const digest = apiKeyDigest(input.key);
  const now = ctx.now();
  let verified = verifiedKeys.get(digest, now);
  if (!verified) {
    const [row] = await preparedOn(ctx.db, "api_key_by_digest", activeKeyByDigest).execute({ digest, now: now.toISOString() });
    if (!row) throw invalidApiKey();
    const { scopes, ...key } = row;
    verified = verifiedKeys.set(digest, scopes ? { ...key, restrictedTo: grantedPermissions(scopes) } : key, now);
  }
  await touchLastUsed(ctx, verified, now);
  const { merchantId, keyId, livemode, restrictedTo } = verified;
  return restrictedTo ? { merchantId, keyId, livemode, restrictedTo } : { merchantId, keyId, livemode };
}

/**
 * Records use when the stored `lastUsedAt` is a minute old or more. The cached value moves first, so
 * concurrent requests of this process do not all write; the WHERE turns other processes' writes into
 * no-ops. A failed write is logged and never fails the request.
 */
async function touchLastUsed(ctx: ServiceContext, key: VerifiedKey, now: Date): Promise<void> {
  if (key.lastUsedAt && now.getTime() - key.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
  key.lastUsedAt = now;
  try {
    await ctx.db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiKeys.id, key.keyId),
          eq(apiKeys.merchantId, key.merchantId),
          or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(now.getTime() - LAST_USED_RESOLUTION_MS))),
        ),
      );
  } catch (error) {
    ctx.log.warn({ err: error, keyId: key.keyId }, "could not record API key use");
  }
}

export function invalidApiKey() {
  return new ServiceError("invalid_api_key", "The API key is not valid.", {
    headers: { "www-authenticate": 'Bearer realm="api", error="invalid_token"' },
  });
}
