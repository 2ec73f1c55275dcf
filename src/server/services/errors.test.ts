import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldErrorsFromZod } from "./errors";

const issuesOf = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  if (result.success) throw new Error("expected the input to be refused");
  return result.error.issues;
};

describe("fieldErrorsFromZod", () => {
  it("names each unknown key on its own path, so a client sees which field it misspelt", () => {
    const schema = z.strictObject({ claim: z.strictObject({ expiresIn: z.number() }) });
    expect(fieldErrorsFromZod("body", issuesOf(schema, { claim: { expiresIn: 60, expiresln: 1, note: "x" } }))).toEqual([
      { path: "body.claim.expiresln", message: "is not a known field" },
      { path: "body.claim.note", message: "is not a known field" },
    ]);
  });

  it("keeps every other issue on its path with zod's message", () => {
    const schema = z.strictObject({ amount: z.string().min(1) });
    expect(fieldErrorsFromZod("query", issuesOf(schema, { amount: "" }))).toEqual([{ path: "query.amount", message: expect.stringMatching(/\S/) }]);
  });
});
