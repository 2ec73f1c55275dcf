import { assertNoJwkSecrets, parseJwk } from "./jwk";
import { parsePem } from "./pem";
import { KeyRefusal } from "./refusal";
import { containsPrivatePemLabel } from "./secrets";
import { ALLOWED_USES, type KeyUse, type ParsedPublicKey } from "./types";

/** Per-key limit, in bytes of the PEM text or of the JWK as JSON; checked before anything is parsed. */
export const MAX_KEY_BYTES = 16 * 1024;

export interface KeySubmission {
  jwk?: unknown;
  pem?: unknown;
}

/**
 * The one entry point: reads a submitted key (exactly one of `jwk` or `pem`) into a canonical public JWK and
 * its thumbprint, or throws a `KeyRefusal`. Both fields are scanned for private material before the
 * "exactly one" rule is applied, so sending a private key in either one is always refused as such.
 */
export function parseSubmittedKey(submission: KeySubmission): ParsedPublicKey {
  const { jwk, pem } = submission;
  if (typeof pem === "string" && containsPrivatePemLabel(pem)) throw new KeyRefusal("private_pem_block");
  if (jwk !== undefined) assertNoJwkSecrets(jwk);
  if ((jwk === undefined) === (pem === undefined)) throw new KeyRefusal("unsupported_format");

  if (pem !== undefined) {
    if (typeof pem !== "string") throw new KeyRefusal("unsupported_format");
    if (Buffer.byteLength(pem, "utf8") > MAX_KEY_BYTES) throw new KeyRefusal("too_large");
    return parsePem(pem);
  }
  if (Buffer.byteLength(JSON.stringify(jwk) ?? "", "utf8") > MAX_KEY_BYTES) throw new KeyRefusal("too_large");
  return parseJwk(jwk);
}

/** Ed25519 is for signatures and X25519 for encryption only; the rest may be either. */
export function assertUseAllowed(key: ParsedPublicKey, use: KeyUse): void {
  if (!ALLOWED_USES[key.keyType].includes(use)) throw new KeyRefusal("use_mismatch");
}
