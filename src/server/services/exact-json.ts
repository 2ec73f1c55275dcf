import { z } from "zod";

const NUMBER_MESSAGE =
  `must be a finite number between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}: ` +
  "send exact or larger numbers as strings";

/**
 * Why a free-form JSON value would not come back exactly as sent, one issue per place (path relative to
 * the value). JSON.parse has already turned `1e400` into Infinity (stored as null) and rounded integers
 * past 2^53 − 1, so such numbers are refused rather than kept changed; a `__proto__` key is refused
 * because parsers and object spreads drop it or turn it into the object's prototype. (Strings and keys
 * PostgreSQL cannot store are refused before any schema runs: input-guard.ts.)
 */
export function inexactJsonIssues(value: unknown, path: (string | number)[] = []): { path: (string | number)[]; message: string }[] {
  if (typeof value === "number") {
    return Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER ? [] : [{ path, message: NUMBER_MESSAGE }];
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => inexactJsonIssues(item, [...path, index]));
  if (!value || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, item]) => {
    if (key === "__proto__") return [{ path: [...path, key], message: "a key named __proto__ is not accepted" }];
    return inexactJsonIssues(item, [...path, key]);
  });
}

/**
 * A schema for free-form JSON that is stored and returned as sent: the value is screened as it arrived,
 * before `schema` runs (z.record skips a `__proto__` key without a word). Transparent in OpenAPI.
 */
export function exactJson<S extends z.ZodType>(schema: S) {
  return z.preprocess((value, ctx) => {
    for (const issue of inexactJsonIssues(value)) ctx.addIssue({ code: "custom", input: value, ...issue });
    return value;
  }, schema);
}
