import { authenticateApiKey as authenticateKey, invalidApiKey } from "@/server/services/api-keys/authenticate";
import type { Actor, ServiceContext } from "@/server/services/context";
import { ServiceError } from "@/server/services/errors";
import { ambiguousAuthorization } from "./refuse-before-next";

/**
 * Resolves `Authorization: Bearer sk_live_…` (or `sk_test_…`) to the merchant's API-key actor, with the key's mode. Missing → 401 unauthenticated
 * (with WWW-Authenticate); anything else wrong → one identical invalid_api_key answer.
 */
export async function authenticateApiKey(ctx: ServiceContext, request: Request): Promise<Extract<Actor, { type: "api_key" }>> {
  const header = request.headers.get("authorization");
  if (!header) {
    throw new ServiceError("unauthenticated", "Send your API key as `Authorization: Bearer sk_live_…`.", {
      headers: { "www-authenticate": 'Bearer realm="api"' },
    });
  }
  // Two Authorization headers arrive joined by ", " (Fetch); over HTTP, refuse-before-next.ts refuses them first.
  if (header.includes(",")) throw ambiguousAuthorization().error;
  const key = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  if (!key) throw invalidApiKey();
  return { type: "api_key", ...(await authenticateKey({ ctx, input: { key } })) };
}
