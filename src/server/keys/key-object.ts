import type { KeyObject } from "node:crypto";
import { KeyRefusal } from "./refusal";
import { jwkThumbprint } from "./thumbprint";
import type { ParsedPublicKey, PublicJwk, SupportedKeyType } from "./types";

export const MIN_RSA_BITS = 2048;

/** OpenSSL's curve names → the JOSE names we publish. P-521 is left out on purpose (not in the contract). */
const EC_CURVES: Record<string, "P-256" | "P-384" | "secp256k1"> = {
  prime256v1: "P-256",
  secp384r1: "P-384",
  secp256k1: "secp256k1",
};

/**
 * Checks that a parsed key is one we publish and re-exports it as a canonical public JWK. Every accepted
 * key, whether it came in as PEM or JWK, leaves through `export({ format: "jwk" })`, so what we store is what
 * node:crypto understood — never the submitted text.
 */
export function toParsedPublicKey(key: KeyObject): ParsedPublicKey {
  // Defence in depth: both readers only ever build public keys, but a private KeyObject must never pass.
  if (key.type !== "public") throw new KeyRefusal("private_der");

  const keyType = supportedType(key);
  let exported: Record<string, unknown>;
  try {
    exported = key.export({ format: "jwk" }) as Record<string, unknown>;
  } catch {
    throw new KeyRefusal("unsupported_type");
  }
  const jwk = canonical(keyType, exported);
  return { keyType, jwk, thumbprint: jwkThumbprint(jwk) };
}

function supportedType(key: KeyObject): SupportedKeyType {
  switch (key.asymmetricKeyType) {
    case "ed25519":
      return "Ed25519";
    case "x25519":
      return "X25519";
    case "ec": {
      const curve = EC_CURVES[key.asymmetricKeyDetails?.namedCurve ?? ""];
      if (!curve) throw new KeyRefusal("unsupported_curve");
      return curve;
    }
    case "rsa": {
      const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
      if (bits < MIN_RSA_BITS) throw new KeyRefusal("weak_rsa");
      // An even or trivial exponent is not an RSA public key anyone can use safely.
      const exponent = key.asymmetricKeyDetails?.publicExponent ?? 0n;
      if (exponent < 3n || exponent % 2n === 0n) throw new KeyRefusal("malformed");
      return "RSA";
    }
    case "ed448":
    case "x448":
      return unsupported("unsupported_curve");
    default:
      // rsa-pss, dsa, dh: no JWK form we publish.
      return unsupported("unsupported_type");
  }
}

function unsupported(reason: "unsupported_curve" | "unsupported_type"): never {
  throw new KeyRefusal(reason);
}

function canonical(keyType: SupportedKeyType, jwk: Record<string, unknown>): PublicJwk {
  const member = (name: string): string => {
    const value = jwk[name];
    if (typeof value !== "string" || value === "") throw new KeyRefusal("malformed");
    return value;
  };
  switch (keyType) {
    case "Ed25519":
    case "X25519":
      return { kty: "OKP", crv: keyType, x: member("x") };
    case "P-256":
    case "P-384":
    case "secp256k1":
      return { kty: "EC", crv: keyType, x: member("x"), y: member("y") };
    case "RSA":
      return { kty: "RSA", n: member("n"), e: member("e") };
  }
}
