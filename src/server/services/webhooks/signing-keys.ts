import type { ServiceContext } from "../context";
import type { SigningKeys } from "./schemas";

/**
 * The public keys of the service's `v1a` webhook signatures (WEBHOOK_SIGNING_KEY), as a JWK Set, current key
 * first: receivers verify with them and hold no shared secret. Several only during a key rotation (each signs
 * every webhook meanwhile); empty when the service signs with HMAC only.
 */
export function getSigningKeys({ ctx }: { ctx: ServiceContext }): SigningKeys {
  return { keys: ctx.env.WEBHOOK_SIGNING_KEY.map((key) => ({ ...key.jwk, whpk: key.publicKey })) };
}
