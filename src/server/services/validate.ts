import type { z } from "zod";
import { fieldErrorsFromZod, ValidationError } from "./errors";
import { guardInput } from "./input-guard";

// Outputs of a successful validation, by the schema that produced them: the same input is validated once per
// request, though the REST adapter (with `params.`/`query.`/`body.` paths) and the verb both ask.
const validated = new WeakMap<object, z.ZodType>();

/**
 * The one validation of an input, for every adapter and verb: strings PostgreSQL cannot store and nesting too
 * deep are refused first (input-guard.ts), then the schema runs; any failure is a 400 validation_failed naming
 * each bad field under `where`, never a ZodError's 500. A value this function already returned for `schema`
 * passes as is.
 */
export function validateInput<S extends z.ZodType>(schema: S, input: unknown, where = "input"): z.output<S> {
  if (typeof input === "object" && input !== null && validated.get(input) === schema) return input as z.output<S>;
  const refused = guardInput(where, input);
  if (refused.length > 0) throw new ValidationError(refused);
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(fieldErrorsFromZod(where, result.error.issues));
  const output = result.data as z.output<S>;
  if (typeof output === "object" && output !== null) validated.set(output, schema);
  return output;
}
