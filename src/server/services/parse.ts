import type { z } from "zod";
import { fieldErrorsFromZod, ValidationError } from "./errors";

/**
 * Validates a verb's input. Adapters validate first (REST with `body.`/`query.` paths, tRPC with its
 * `.input()`), so this is the second line: a bad input from any caller is a 400, never a ZodError's 500.
 * Schemas parsed here must be idempotent (parsing their own output gives the same output).
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, prefix = "input"): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(fieldErrorsFromZod(prefix, result.error.issues));
  return result.data;
}
