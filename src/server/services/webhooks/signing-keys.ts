import type { ServiceContext } from "../context";
import type { SigningKeys } from "./schemas";

/**
 * The public key of the service's `v1a` webhook signatures (WEBHOOK_SIGNING_KEY), as a JWK Set: receivers
 * verify with it and hold no shared secret. Empty when the service signs with HMAC only.
 */
export function getSigningKeys({ ctx }: { ctx: ServiceContext }): SigningKeys {
  const key = ctx.env.WEBHOOK_SIGNING_KEY;
  return { keys: key ? [{ ...key.jwk, whpk: key.publicKey }] : [] };
}
