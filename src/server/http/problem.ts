import { ERROR_CODES, type ErrorCode } from "@/server/services/error-codes";
import type { FieldError } from "@/server/services/errors";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  requestId: string;
  errors?: FieldError[];
  /** A code's own members (docs/errors.md names them under the code). */
  [member: string]: unknown;
}

/** RFC 9457 problem details; `type` points at the code's entry in the error catalogue. */
export function problemBody(
  code: ErrorCode,
  detail: string,
  requestId: string,
  errors?: FieldError[],
  members?: Record<string, string>,
): Problem {
  const { status, title } = ERROR_CODES[code];
  return {
    type: `/docs/errors#${code}`,
    title,
    status,
    detail,
    code,
    requestId,
    ...(errors && errors.length > 0 ? { errors } : {}),
    ...members,
  };
}

export function problemResponse(problem: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: {
      "content-type": PROBLEM_CONTENT_TYPE,
      "cache-control": "no-store",
      "x-request-id": problem.requestId,
      ...headers,
    },
  });
}
