/** Standard (padded) base64, as Standard Webhooks writes keys and signatures; the empty string matches too. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function isBase64(text: string): boolean {
  return BASE64.test(text);
}

/** The bytes of `<prefix><base64>` (`whsec_…`, `whsk_…`), or null when `text` is not that or holds nothing. */
export function decodePrefixedBase64(text: string, prefix: string): Buffer | null {
  if (!text.startsWith(prefix)) return null;
  const encoded = text.slice(prefix.length);
  return encoded !== "" && BASE64.test(encoded) ? Buffer.from(encoded, "base64") : null;
}
