// PostgreSQL stores neither NUL (text, jsonb) nor unpaired UTF-16 surrogates (jsonb): such a string reaching an
// INSERT or a WHERE turns into a database error, so inputs are checked for them first.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether PostgreSQL can store this string in text and jsonb columns. */
export function storable(text: string): boolean {
  return !text.includes("\u0000") && !LONE_SURROGATE.test(text);
}
