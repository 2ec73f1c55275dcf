import { createHash } from "node:crypto";
import superjson from "superjson";
import { z } from "zod";
import { canonicalJson } from "@/lib/canonical-json";
import type { Runtime } from "@/server/runtime";
import { inTransaction, livemodeOf, type ServiceContext } from "@/server/services/context";
import { ServiceError, type FieldError } from "@/server/services/errors";
import type { ErrorCode } from "@/server/services/error-codes";
import { runIdempotently, type IdempotencyPolicy } from "@/server/services/idempotency/run";
import { REPLAYED_HEADER, scopedPath } from "@/server/services/idempotency/records";

/**
 * A dashboard form's submission (docs/dashboard.md, "Forms that create"): the input, and the idempotency key of
 * the form instance that sent it (`useSubmission` in the browser). A procedure that creates something — or acts
 * for staff — takes this shape and runs through `once`, on the same idempotency service as the REST API's
 * `Idempotency-Key` (services/idempotency): a double click, a retried request or a resubmission of the same
 * form answers the first submission's answer, and nothing is made twice.
 */
export const IDEMPOTENCY_KEY = z.string().regex(/^[\x21-\x7e]{1,255}$/, "must be 1–255 visible ASCII characters");

export function submissionOf<T extends z.ZodType>(input: T) {
  const schema = z.strictObject({ idempotencyKey: IDEMPOTENCY_KEY, input });
  SUBMISSIONS.add(schema);
  return schema;
}

// The schemas made by submissionOf: a test checks that every mutation outside its list of exceptions takes one.
const SUBMISSIONS = new WeakSet<z.ZodType>();

export function isSubmissionSchema(schema: unknown): boolean {
  return typeof schema === "object" && schema !== null && SUBMISSIONS.has(schema as z.ZodType);
}

/** Input sent in the submission shape (whether or not the procedure takes one): error paths name its `input`. */
export function isSubmissionShape(raw: unknown): raw is { idempotencyKey?: unknown; input: unknown } {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw) || !("input" in raw)) return false;
  return Object.keys(raw).every((key) => key === "input" || key === "idempotencyKey");
}

export interface Submission<T> {
  idempotencyKey: string;
  input: T;
}

/** An answer whose `K` (a secret) is shown to the first submission only: a replay has it null. */
export type ShownOnce<T, K extends keyof T> = Omit<T, K> & { [P in K]: T[P] | null };

export interface OnceOptions<O> {
  /** `atomic` for verbs that only touch the database (the answer commits with them); leased otherwise. */
  policy?: IdempotencyPolicy;
  /** What of the answer is kept for a replay: a secret shown once is left out (it is shown to the first only). */
  keep?: (output: O) => O;
}

const DEFAULT_POLICY: IdempotencyPolicy = { store: "final" };

/**
 * Runs `run` at most once per form submission: per merchant (or, for staff across merchants, the staff user),
 * mode, procedure, user and key, with the input's digest compared as REST compares bodies. A stored final error
 * is thrown again as the same ServiceError; a stored answer is returned as it was (less what `keep` left out).
 */
export async function once<I, O>(
  ctx: { runtime: Runtime; service: ServiceContext },
  path: string,
  submission: Submission<I>,
  run: (service: ServiceContext) => Promise<O>,
  options: OnceOptions<O> = {},
): Promise<O> {
  const { actor } = ctx.service;
  const userId = actor.type === "user" || actor.type === "staff" ? actor.userId : "system";
  const owner = "merchantId" in actor && actor.merchantId ? actor.merchantId : `user ${userId}`;
  const answer = await runIdempotently(
    {
      db: ctx.runtime.database.db,
      log: ctx.service.log,
      now: ctx.runtime.now(),
      // The user is part of the scope: a key is one form instance's, and another user's key replays nothing.
      scope: { merchantId: owner, method: "TRPC", path: scopedPath(`${path} ${userId}`, livemodeOf(ctx.service)), key: submission.idempotencyKey },
      digest: createHash("sha256").update(canonicalJson(submission.input ?? null)).digest("hex"),
      policy: options.policy ?? DEFAULT_POLICY,
      errorAnswer: (error) => ({ status: error.status, body: { code: error.code, detail: error.detail, errors: error.errors } }),
      keep: (body) => superjson.serialize(options.keep ? options.keep(body as O) : body),
    },
    async (tx) => ({ status: 200, body: await run(tx ? inTransaction(ctx.service, tx) : ctx.service) }),
  );
  if (answer.headers?.[REPLAYED_HEADER] !== "true") return answer.body as O;
  if (answer.status >= 400) {
    const stored = answer.body as { code: ErrorCode; detail: string; errors?: FieldError[] };
    throw new ServiceError(stored.code, stored.detail, { errors: stored.errors });
  }
  return superjson.deserialize(answer.body as Parameters<typeof superjson.deserialize>[0]);
}
