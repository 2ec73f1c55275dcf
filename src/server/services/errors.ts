import { ERROR_CODES, type ErrorCode } from "./error-codes";

export interface FieldError {
  /** Dotted path of the failing field: `body.amount`, `query.limit`, `params.id`. */
  path: string;
  message: string;
}

/** A failure the caller can act on. Services throw these; adapters translate them (REST, tRPC). */
export class ServiceError extends Error {
  readonly status: number;
  readonly title: string;

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    /** `members`: the problem's own members beside the standard ones (`refundable`), documented with its code. */
    readonly options: { errors?: FieldError[]; headers?: Record<string, string>; members?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = "ServiceError";
    this.status = ERROR_CODES[code].status;
    this.title = ERROR_CODES[code].title;
  }

  get errors(): FieldError[] | undefined {
    return this.options.errors;
  }
}

export class ValidationError extends ServiceError {
  constructor(errors: FieldError[], detail = "The request has invalid fields.") {
    super("validation_failed", detail, { errors });
    this.name = "ValidationError";
  }
}

/** Also what another merchant's resource answers: existence must not leak. */
export class NotFoundError extends ServiceError {
  constructor(resource: string) {
    super("not_found", `No such ${resource}.`);
    this.name = "NotFoundError";
  }
}

export class RateLimitedError extends ServiceError {
  /** `limit`: the exhausted limit in words, when it is not the general one (the detail names it). */
  constructor(readonly retryAfterSeconds: number, headers: Record<string, string> = {}, limit?: string) {
    super("rate_limited", `${limit ? `Too many requests: ${limit}.` : "Too many requests."} Retry after ${retryAfterSeconds} s.`, {
      headers: { "retry-after": String(retryAfterSeconds), ...headers },
    });
    this.name = "RateLimitedError";
  }
}

export function isServiceError(error: unknown): error is ServiceError {
  return error instanceof ServiceError;
}

/**
 * Turns zod issues into field errors under a prefix (`body`, `query`, `params`). An unknown key is reported on its
 * own path (`body.amout`), not on the object holding it, so a client sees which field it misspelt.
 */
export function fieldErrorsFromZod(
  prefix: string,
  issues: readonly { path: readonly PropertyKey[]; message: string; code?: string; keys?: readonly string[] }[],
): FieldError[] {
  return issues.flatMap((issue) => {
    const at = [prefix, ...issue.path.map(String)];
    if (issue.code === "unrecognized_keys" && issue.keys?.length) {
      return issue.keys.map((key) => ({ path: [...at, key].join("."), message: "is not a known field" }));
    }
    return [{ path: at.join("."), message: issue.message }];
  });
}
