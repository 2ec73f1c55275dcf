import type { FieldError } from "@/server/services/errors";

/** Deeper JSON than any request needs; recursive code downstream (JSON.stringify, zod) overflows near 5,000. */
export const MAX_INPUT_DEPTH = 32;

// PostgreSQL stores neither NUL (text, jsonb) nor unpaired UTF-16 surrogates (jsonb): without this guard such
// a string reaches an INSERT or a WHERE and the database error becomes a 500.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function unstorable(text: string): boolean {
  return text.includes("\u0000") || LONE_SURROGATE.test(text);
}

/**
 * Checks a request input (path params, query or JSON body) before its schema sees it: strings and keys the
 * database cannot store, and nesting deeper than MAX_INPUT_DEPTH. Iterative, so depth itself cannot
 * overflow the stack. Returns one field error per offending place, paths as zod's are (`body.a.0`).
 */
export function guardInput(where: string, value: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: where, depth: 0 }];
  while (stack.length > 0 && errors.length < 20) {
    const item = stack.pop()!;
    if (typeof item.value === "string") {
      if (unstorable(item.value)) errors.push({ path: item.path, message: "must not contain NUL characters or unpaired surrogates" });
      continue;
    }
    if (!item.value || typeof item.value !== "object") continue;
    if (item.depth >= MAX_INPUT_DEPTH) {
      errors.push({ path: item.path, message: `nests deeper than ${MAX_INPUT_DEPTH} levels` });
      continue;
    }
    for (const [key, child] of Object.entries(item.value)) {
      const path = `${item.path}.${key}`;
      if (unstorable(key)) errors.push({ path, message: "keys must not contain NUL characters or unpaired surrogates" });
      else stack.push({ value: child, path, depth: item.depth + 1 });
    }
  }
  return errors;
}
