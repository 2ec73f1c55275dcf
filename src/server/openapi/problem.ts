import { z } from "zod";
import type { AnyRoute } from "@/server/http/route";
import { problemBody, type Problem } from "@/server/http/problem";
import { ERROR_CODES, type ErrorCode } from "@/server/services/error-codes";
import { EXAMPLE_IDS } from "./examples";

const errorCodes = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/** RFC 9457 problem details as the API sends them (src/server/http/problem.ts builds them). */
export const problemSchema = z.object({
  type: z.string().describe("Link to this code's entry in the error catalogue (`/docs/errors#<code>`)."),
  title: z.string().describe("Short, stable summary of the code."),
  status: z.number().int().min(400).max(599).describe("The HTTP status, repeated."),
  detail: z.string().describe("What went wrong with this request, for a human."),
  code: z.enum(errorCodes).describe("Stable snake_case code to branch on; see docs/errors.md."),
  requestId: z.string().describe("Also in the `x-request-id` header; quote it to support."),
  errors: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .optional()
    .describe("Each failing field (`body.amount`, `query.limit`, `params.id`) on validation_failed."),
  permission: z
    .string()
    .optional()
    .describe("On insufficient_scope: the permission (`payments.read`) the restricted key would need for this request."),
});

/**
 * Every code an operation can answer with: its declared `errors` plus what the pipeline itself can refuse
 * with (validation when it has inputs, not_found for ids in the path, body limits when it reads a body,
 * authentication and a restricted key's scopes, Idempotency-Key conflicts, rate limits, and the generic 500/503). The OpenAPI document and the fuzzer both use this list.
 */
export function documentedErrorCodes(route: AnyRoute): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  if (route.params || route.query || route.body) codes.add("validation_failed");
  // An id in the path may name nothing (or another merchant's resource, which answers the same).
  if (route.path.includes("{")) codes.add("not_found");
  if (route.streamedBody) {
    codes.add("validation_failed");
    codes.add("payload_too_large");
    codes.add("unsupported_media_type");
  }
  if (route.body) {
    codes.add("malformed_json");
    codes.add("payload_too_large");
    codes.add("unsupported_media_type");
  }
  if (route.auth === "api_key") {
    codes.add("unauthenticated");
    codes.add("invalid_api_key");
    // A restricted key (`rk_…`) whose scopes do not grant the route's permission.
    codes.add("insufficient_scope");
  }
  if (takesIdempotencyKey(route)) {
    codes.add("validation_failed");
    codes.add("idempotency_key_reused");
    codes.add("idempotency_key_in_use");
  }
  for (const code of route.errors ?? []) codes.add(code);
  codes.add("rate_limited");
  codes.add("internal_error");
  codes.add("service_unavailable");
  return [...codes].sort((a, b) => ERROR_CODES[a].status - ERROR_CODES[b].status || a.localeCompare(b));
}

/** A merchant's POST honours `Idempotency-Key` unless the route opts out (src/server/http/idempotency.ts). */
export function takesIdempotencyKey(route: AnyRoute): boolean {
  return route.method === "POST" && route.auth === "api_key" && route.idempotency !== false;
}

/** What a caller receives for `code`: the example shown in the document. */
export function problemExample(code: ErrorCode): Problem {
  const errors = code === "validation_failed" ? [{ path: "body.amount", message: "must be a decimal string" }] : undefined;
  return problemBody(code, `${ERROR_CODES[code].title}. See /docs/errors#${code}.`, EXAMPLE_IDS.request, errors);
}
