import { createHash } from "node:crypto";
import type { PublicJwk } from "./types";

/**
 * RFC 7638 JWK thumbprint: SHA-256 over the required members only, in lexicographic order, with no
 * whitespace (RFC 8037 §2 gives the OKP members). Built by hand rather than JSON.stringify(jwk) because
 * member order and the exact member set are the whole point.
 */
export function jwkThumbprint(jwk: PublicJwk): string {
  const required =
    jwk.kty === "RSA"
      ? { e: jwk.e, kty: jwk.kty, n: jwk.n }
      : jwk.kty === "EC"
        ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }
        : { crv: jwk.crv, kty: jwk.kty, x: jwk.x };
  return createHash("sha256").update(JSON.stringify(required)).digest("base64url");
}
