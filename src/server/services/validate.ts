import type { z } from "zod";
import { fieldErrorsFromZod, ValidationError } from "./errors";
import { guardInput } from "./input-guard";

/**
 * The one validation of an input, for every adapter and verb: strings PostgreSQL cannot store and nesting too
 * deep are refused first (input-guard.ts), then the schema runs; any failure is a 400 validation_failed naming
 * each bad field under `where`, never a ZodError's 500.
 */
export function validateInput<S extends z.ZodType>(schema: S, input: unknown, where = "input"): z.output<S> {
  const refused = guardInput(where, input);
  if (refused.length > 0) throw new ValidationError(refused);
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(fieldErrorsFromZod(where, result.error.issues));
  return result.data as z.output<S>;
}
