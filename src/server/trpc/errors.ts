import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { ZodError } from "zod";
import { fieldErrorsFromZod, isServiceError, RateLimitedError, ValidationError, type ServiceError } from "@/server/services/errors";

const CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_SUPPORTED",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "UNPROCESSABLE_CONTENT",
  429: "TOO_MANY_REQUESTS",
  503: "SERVICE_UNAVAILABLE",
};

export function toTrpcError(error: ServiceError): TRPCError {
  return new TRPCError({ code: CODE_BY_STATUS[error.status] ?? "INTERNAL_SERVER_ERROR", message: trpcMessageOf(error), cause: error });
}

const NAMED_FIELDS = 3;

/**
 * The detail, followed for a validation failure by its first failing fields ("… name: Too big: …"): most
 * dashboard forms show only the message, and "invalid fields" alone would not say which. The fields are in
 * `data.errors` as well, for forms that place each message beside its input.
 */
export function trpcMessageOf(error: ServiceError): string {
  const fields = error.errors ?? [];
  if (fields.length === 0) return error.detail;
  const named = fields.slice(0, NAMED_FIELDS).map(({ path, message }) => {
    const field = path.split(".").slice(1).join("."); // without the `input.` (or `query.`) prefix
    return field ? `${field}: ${message}` : message;
  });
  return `${error.detail} ${named.join("; ")}${fields.length > NAMED_FIELDS ? "; …" : ""}`;
}

/**
 * The HTTP answer's headers for a batch of calls: a refused call's Retry-After and RateLimit headers, as REST
 * sends them (the longest wait wins when several calls of one batch were refused).
 */
export function trpcResponseMeta({ errors }: { errors: readonly TRPCError[] }): { headers?: Record<string, string> } {
  const refusals = errors.map(serviceErrorOf).filter((error) => error instanceof RateLimitedError);
  if (refusals.length === 0) return {};
  const longest = refusals.reduce((longest, refusal) => (refusal.retryAfterSeconds > longest.retryAfterSeconds ? refusal : longest));
  return { headers: { ...longest.options.headers } };
}

/** The ServiceError behind a tRPC error, if any (tRPC wraps thrown errors as `cause`). */
export function serviceErrorOf(error: unknown): ServiceError | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 3; depth++) {
    if (isServiceError(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A procedure's `.input()` schema refusing the input, as the catalogue's `validation_failed` with one field
 * error per issue (`input.name`), the way REST reports `body.name`. tRPC reports these as BAD_REQUEST with
 * the ZodError as cause; a ZodError anywhere else (an output schema, a verb's own `.parse`) is a bug, a 500.
 */
export function inputValidationErrorOf(error: TRPCError, submission = false): ValidationError | undefined {
  if (error.code !== "BAD_REQUEST" || !(error.cause instanceof ZodError)) return undefined;
  // A form submission's fields are named as the procedure's input's (`input.name`), not `input.input.name`.
  const issues = submission ? error.cause.issues.map((issue) => ({ ...issue, path: issue.path[0] === "input" ? issue.path.slice(1) : issue.path })) : error.cause.issues;
  return new ValidationError(fieldErrorsFromZod("input", issues));
}
