import { createPublicKey } from "node:crypto";
import { assertNoJwkSecrets } from "./jwk";
import { toParsedPublicKey } from "./key-object";
import { isPrivateKeyDer } from "./private-der";
import { KeyRefusal } from "./refusal";
import { containsPrivateMarker, containsPrivatePemLabel, isOpenSshPublicKey, looksLikeRawSecret } from "./secrets";
import type { ParsedPublicKey } from "./types";

/** RFC 7468 labels have no hyphens; the body runs to the END line with the same label. */
const BLOCK = /-----BEGIN ([^\r\n-]+)-----([\s\S]*?)-----END \1-----/g;
const CERTIFICATE_LABELS = new Set(["CERTIFICATE", "TRUSTED CERTIFICATE", "X509 CERTIFICATE", "CERTIFICATE REQUEST"]);

/**
 * Reads a PEM `PUBLIC KEY` (SPKI) block. The whole text is checked for private material before anything is
 * parsed, so a private block is refused as such even beside a public key or a certificate, and even when the
 * public part would have been fine. Only one block is accepted, with nothing but whitespace around it.
 */
export function parsePem(text: string): ParsedPublicKey {
  if (containsPrivatePemLabel(text)) throw new KeyRefusal("private_pem_block");

  const blocks = [...text.matchAll(BLOCK)];
  const outside = blocks.reduce((rest, block) => rest.replace(block[0], " "), text);
  if (containsPrivateMarker(outside)) throw new KeyRefusal("private_marker");
  // Armor that never closes (or never opened) is a broken PEM, not bare text.
  if (/-----(?:BEGIN|END)/.test(outside)) throw new KeyRefusal("malformed");
  if (blocks.length === 0) refuseBareText(text);
  if (looksLikeRawSecret(outside)) throw new KeyRefusal("raw_secret");
  if (outside.trim() !== "") throw new KeyRefusal("unsupported_format");

  // Every block's bytes are checked for a private key under a public-looking label before anything else
  // about the blocks (a broken neighbour, the labels) is judged.
  const ders = blocks.map((block) => ({ label: block[1] ?? "", der: decodeBody(block[2] ?? "") }));
  if (ders.some(({ der }) => der !== null && isPrivateKeyDer(der))) throw new KeyRefusal("private_der");
  if (ders.some(({ der }) => der === null)) throw new KeyRefusal("malformed");
  if (ders.some(({ label }) => CERTIFICATE_LABELS.has(label))) throw new KeyRefusal("certificate");
  if (ders.some(({ label }) => label !== "PUBLIC KEY")) throw new KeyRefusal("unsupported_format");
  if (ders.length > 1) throw new KeyRefusal("multiple_keys");

  let key;
  try {
    // DER + `spki` only: node's PEM reader would also accept a certificate or derive a public key from a
    // private one, and we want neither to get this far.
    key = createPublicKey({ key: ders[0]!.der!, format: "der", type: "spki" });
  } catch {
    throw new KeyRefusal("malformed");
  }
  return toParsedPublicKey(key);
}

/** Text with no PEM block at all: a JWK pasted as a string, an OpenSSH key, a bare blob, or noise. */
function refuseBareText(text: string): never {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw new KeyRefusal("unsupported_format");
    }
    assertNoJwkSecrets(parsed);
    throw new KeyRefusal("unsupported_format");
  }
  if (isOpenSshPublicKey(trimmed)) throw new KeyRefusal("unsupported_format");
  if (looksLikeRawSecret(trimmed)) throw new KeyRefusal("raw_secret");
  throw new KeyRefusal("unsupported_format");
}

/** The block's bytes, or null when the body is not strict base64 (RFC 7468 §3). */
function decodeBody(body: string): Buffer | null {
  const compact = body.replace(/\s+/g, "");
  // Encapsulated headers (`Proc-Type: …` of legacy encrypted keys) never pass this either.
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 !== 0) return null;
  return Buffer.from(compact, "base64");
}
