import { and, eq, gt, isNull, or } from "drizzle-orm";
import { apiKeyDigest, isWellFormedApiKey } from "@/server/auth/api-key-format";
import { apiKeys, merchants } from "@/server/db/schema";
import type { Runtime } from "@/server/runtime";
import type { Actor } from "@/server/services/context";
import { ServiceError } from "@/server/services/errors";

const INVALID_KEY_DETAIL = "The API key is not valid.";

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
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const key = match?.[1];
  if (!key || !isWellFormedApiKey(key)) throw invalidKey();

  const now = runtime.now();
  const [row] = await runtime.database.db
    .select({ keyId: apiKeys.id, merchantId: apiKeys.merchantId })
    .from(apiKeys)
    .innerJoin(merchants, eq(merchants.id, apiKeys.merchantId))
    .where(
      and(
        eq(apiKeys.digest, apiKeyDigest(key)),
        isNull(apiKeys.revokedAt),
        or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
        eq(merchants.status, "active"),
      ),
    )
    .limit(1);
  if (!row) throw invalidKey();
  return { type: "api_key", merchantId: row.merchantId, keyId: row.keyId };
}

function invalidKey() {
  return new ServiceError("invalid_api_key", INVALID_KEY_DETAIL, {
    headers: { "www-authenticate": 'Bearer realm="api", error="invalid_token"' },
  });
}
