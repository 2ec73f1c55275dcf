// PostgreSQL stores neither NUL (text, jsonb) nor unpaired UTF-16 surrogates (jsonb): such a string reaching an
// INSERT or a WHERE turns into a database error, so every input is checked for them first, in one place
// (services/input-guard.ts, run by services/validate.ts and by every tRPC procedure).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const UNSTORABLE_TEXT = "must not contain NUL characters or unpaired surrogates";
export const UNSTORABLE_KEY = "keys must not contain NUL characters or unpaired surrogates";

/** Whether PostgreSQL can store this string in text and jsonb columns. */
export function storable(text: string): boolean {
  return !text.includes("\u0000") && !LONE_SURROGATE.test(text);
}
