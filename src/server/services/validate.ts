import type { z } from "zod";
import { fieldErrorsFromZod, ValidationError } from "./errors";

/**
 * Parses a verb's input. Adapters validate before calling (REST reports `body.…` paths), so this only
 * fails for a caller that skipped that: it still answers 400 validation_failed, never a 500.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(fieldErrorsFromZod("input", result.error.issues));
  return result.data;
}
