import { and, eq, gt, isNull, lt, or } from "drizzle-orm";
import { apiKeyDigest, isWellFormedApiKey } from "@/server/auth/api-key-format";
import { verifiedKeys, type VerifiedKey } from "@/server/auth/verified-key-cache";
import { apiKeys, merchants } from "@/server/db/schema";
import type { Runtime } from "@/server/runtime";
import type { Actor } from "@/server/services/context";
import { ServiceError } from "@/server/services/errors";
import { ambiguousAuthorization } from "./refuse-before-next";

const INVALID_KEY_DETAIL = "The API key is not valid.";
/** `lastUsedAt` is kept to the minute: at most one write a minute per key, never one per request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Resolves `Authorization: Bearer sk_live_…` to the merchant's API-key actor.
 * Missing → 401 unauthenticated (with WWW-Authenticate); anything else wrong → one identical
 * invalid_api_key answer, so the response is no oracle for which check failed.
 */
export async function authenticateApiKey(
  runtime: Runtime,
  request: Request,
): Promise<Extract<Actor, { type: "api_key" }>> {
  const header = request.headers.get("authorization");
  if (!header) {
    throw new ServiceError("unauthenticated", "Send your API key as `Authorization: Bearer sk_live_…`.", {
      headers: { "www-authenticate": 'Bearer realm="api"' },
    });
  }
  // Two Authorization headers arrive joined by ", " (Fetch); over HTTP, refuse-before-next.ts refuses them first.
  if (header.includes(",")) throw ambiguousAuthorization().error;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const key = match?.[1];
  if (!key || !isWellFormedApiKey(key)) throw invalidKey();

  const digest = apiKeyDigest(key);
  const now = runtime.now();
  let verified = verifiedKeys.get(digest, now);
  if (!verified) {
    const row = await lookUpKey(runtime, digest, now);
    if (!row) throw invalidKey();
    verified = verifiedKeys.set(digest, row, now);
  }
  await touchLastUsed(runtime, verified, now);
  return { type: "api_key", merchantId: verified.merchantId, keyId: verified.keyId };
}

async function lookUpKey(runtime: Runtime, digest: string, now: Date): Promise<VerifiedKey | undefined> {
  const [row] = await runtime.database.db
    .select({
      keyId: apiKeys.id,
      merchantId: apiKeys.merchantId,
      expiresAt: apiKeys.expiresAt,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .innerJoin(merchants, eq(merchants.id, apiKeys.merchantId))
    .where(
      and(
        eq(apiKeys.digest, digest),
        isNull(apiKeys.revokedAt),
        or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
        eq(merchants.status, "active"),
      ),
    )
    .limit(1);
  return row;
}

/**
 * Records use when the stored `lastUsedAt` is a minute old or more. The cached value moves first, so
 * concurrent requests of this process do not all write; the WHERE turns other processes' writes into
 * no-ops. A failed write is logged and never fails the request.
 */
async function touchLastUsed(runtime: Runtime, key: VerifiedKey, now: Date): Promise<void> {
  if (key.lastUsedAt && now.getTime() - key.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
  key.lastUsedAt = now;
  try {
    await runtime.database.db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiKeys.id, key.keyId),
          eq(apiKeys.merchantId, key.merchantId),
          or(
            isNull(apiKeys.lastUsedAt),
            lt(apiKeys.lastUsedAt, new Date(now.getTime() - LAST_USED_RESOLUTION_MS)),
          ),
        ),
      );
  } catch (error) {
    runtime.log.warn({ err: error, keyId: key.keyId }, "could not record API key use");
  }
}

function invalidKey() {
  return new ServiceError("invalid_api_key", INVALID_KEY_DETAIL, {
    headers: { "www-authenticate": 'Bearer realm="api", error="invalid_token"' },
  });
}
