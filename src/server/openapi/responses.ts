import type { ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { IDEMPOTENCY_KEY_MAX_LENGTH } from "@/server/http/idempotency";
import type { AnyRoute } from "@/server/http/route";
import { ERROR_CODES, type ErrorCode } from "@/server/services/error-codes";
import { problemExample } from "./problem";

const PROBLEM_JSON = "application/problem+json";
const REQUEST_ID = { "x-request-id": { $ref: "#/components/headers/RequestId" } };

/** The request header every merchant POST accepts (src/server/http/idempotency.ts). */
export const idempotencyHeader = z.object({
  "idempotency-key": z
    .string()
    .min(1)
    .max(IDEMPOTENCY_KEY_MAX_LENGTH)
    .regex(/^[\x21-\x7e]+$/)
    .optional()
    .describe(
      "Any unique string (a UUID) per logical request. A retry with the same key and body gets the first " +
        "answer again (`Idempotent-Replayed: true`); the same key with another body is 422 " +
        "`idempotency_key_reused`; while the first is still running, 409 `idempotency_key_in_use` (payment " +
        "confirmation instead waits for the first and answers with its result). Kept 24 h.",
    ),
});

const replayedHeader = {
  description: "`true` when this is the stored answer to an earlier request with the same Idempotency-Key.",
  schema: { type: "string" as const, enum: ["true"] },
};

export function successResponses(route: AnyRoute, replayable: boolean): Record<string, ResponseConfig> {
  return Object.fromEntries(
    Object.entries(route.responses).map(([status, declared]) => [
      status,
      {
        description: declared.description,
        headers: {
          ...REQUEST_ID,
          ...(replayable ? { "idempotent-replayed": replayedHeader } : {}),
        },
        ...(declared.schema && declared.mediaType
          ? {
              content: {
                [declared.mediaType]: {
                  schema: z
                    .string()
                    .describe(`Server-sent events; the \`data\` of each is one ${componentName(declared.schema)} as JSON.`),
                  ...(declared.example !== undefined ? { example: declared.example } : {}),
                },
              },
            }
          : declared.schema
          ? {
              content: {
                "application/json": {
                  schema: declared.schema,
                  ...(declared.example !== undefined ? { example: declared.example } : {}),
                },
              },
            }
          : {}),
      },
    ]),
  );
}

/** The component a schema is registered as (`.meta({ id })`), for prose that names it. */
export function componentName(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  return id ? `[${id}](#/components/schemas/${id})` : "JSON object";
}

/** One response per status; its `code` narrowed to the codes this operation can answer with at that status. */
export function errorResponses(codes: ErrorCode[]): Record<string, ResponseConfig> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, statusCodes]) => [
      String(status),
      {
        description: statusCodes.map((code) => `\`${code}\`: ${ERROR_CODES[code].title}`).join("; "),
        headers: { ...REQUEST_ID, ...problemHeaders(status) },
        content: {
          [PROBLEM_JSON]: {
            schema: {
              allOf: [
                { $ref: "#/components/schemas/Problem" },
                { type: "object", properties: { code: { type: "string", enum: statusCodes } } },
              ],
            },
            examples: Object.fromEntries(
              statusCodes.map((code) => [code, { summary: ERROR_CODES[code].title, value: problemExample(code) }]),
            ),
          },
        },
      },
    ]),
  );
}

function problemHeaders(status: number): Record<string, { description: string; schema: { type: "integer" | "string" } }> {
  const retryAfter = { description: "Seconds to wait before trying again.", schema: { type: "integer" as const } };
  if (status === 429 || status === 503) return { "retry-after": retryAfter };
  if (status === 401) {
    return { "www-authenticate": { description: "`Bearer realm=\"api\"`, with `error=\"invalid_token\"` for a bad key.", schema: { type: "string" as const } } };
  }
  return {};
}
