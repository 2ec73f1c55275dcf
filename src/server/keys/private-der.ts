import { createPrivateKey } from "node:crypto";

/** PKCS#8 (also encrypted), PKCS#1 (RSA) or SEC1 (EC) private key bytes, whatever label or field held them. */
export function isPrivateKeyDer(der: Buffer): boolean {
  return (["pkcs8", "pkcs1", "sec1"] as const).some((type) => {
    try {
      createPrivateKey({ key: der, format: "der", type });
      return true;
    } catch (error) {
      // Encrypted PKCS#8 is recognised as a private key before the missing passphrase stops it.
      return (error as { code?: unknown }).code === "ERR_MISSING_PASSPHRASE";
    }
  });
}

/** base64 or base64url, padded or not; whitespace (line breaks of a pasted block) is removed first. */
const BASE64_TEXT = /^[A-Za-z0-9+/_-]+={0,2}$/;
/** An Ed25519 PKCS#8 key, the smallest private key node:crypto reads, is 48 bytes: 64 characters. */
const MIN_ENCODED_KEY_LENGTH = 64;

/**
 * Whether text is a private key's DER in base64/base64url without its PEM armour (`MC4CAQAwBQYDK2VwBCIEI…`).
 * Only text that decodes to a DER SEQUENCE (0x30) is handed to node:crypto, so words and other base64 cost
 * a regex test.
 */
export function isEncodedPrivateKeyDer(text: string): boolean {
  const compact = text.replace(/\s+/g, "");
  if (compact.length < MIN_ENCODED_KEY_LENGTH || !BASE64_TEXT.test(compact)) return false;
  // Node's base64 decoder reads both alphabets.
  const der = Buffer.from(compact, "base64");
  return der[0] === 0x30 && isPrivateKeyDer(der);
}
