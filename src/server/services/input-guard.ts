import { storable, UNSTORABLE_KEY, UNSTORABLE_TEXT } from "@/lib/storable-text";
import type { FieldError } from "./errors";

/** Deeper JSON than any request needs; recursive code downstream (JSON.stringify, zod) overflows near 5,000. */
export const MAX_INPUT_DEPTH = 32;

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
      if (!storable(item.value)) errors.push({ path: item.path, message: UNSTORABLE_TEXT });
      continue;
    }
    if (!item.value || typeof item.value !== "object") continue;
    if (item.depth >= MAX_INPUT_DEPTH) {
      errors.push({ path: item.path, message: `nests deeper than ${MAX_INPUT_DEPTH} levels` });
      continue;
    }
    for (const [key, child] of Object.entries(item.value)) {
      const path = `${item.path}.${key}`;
      if (!storable(key)) errors.push({ path, message: UNSTORABLE_KEY });
      else stack.push({ value: child, path, depth: item.depth + 1 });
    }
  }
  return errors;
}
