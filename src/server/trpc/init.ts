import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { newId } from "@/lib/ids";
import type { SessionUser } from "@/server/services/users/session-user";
import type { Runtime } from "@/server/runtime";
import { createServiceContext, noteWrite } from "@/server/services/create-context";
import type { Actor, RequestClient } from "@/server/services/context";
import { guardInput } from "@/server/services/input-guard";
import { dashboardUserPolicy, rateLimitsFor } from "@/server/rate-limit/limits";
import { databaseUnavailableError } from "@/server/services/database-unavailable";
import { recordRefusal } from "@/server/services/audit/record-refusal";
import { holdsAny, may, SELF_SERVICE, type InputPermission, type Permission } from "@/server/auth/permissions";
import { merchantSideOf } from "@/server/auth/view-as";
import { isServiceError, ServiceError, ValidationError } from "@/server/services/errors";
import { inputValidationErrorOf, serviceErrorOf, toTrpcError, trpcMessageOf } from "./errors";
import { isSubmissionShape } from "./submission";
import { refuseMutationWhileViewingAs } from "./view-as";

export interface TrpcContext {
  runtime: Runtime;
  session: SessionUser | null;
  requestId: string;
  /** The dashboard's test-mode switch (auth/dashboard-mode.ts): merchant procedures act in this mode. */
  livemode: boolean;
  /** The browser's address and User-Agent, for the audit log. */
  client?: RequestClient;
}

export function createTrpcContext(runtime: Runtime, session: SessionUser | null, livemode = true, client?: RequestClient): TrpcContext {
  return { runtime, session, requestId: newId("request"), livemode, client };
}

/**
 * What every procedure declares (a test fails on one that does not): the permissions of which the caller needs
 * one (auth/permissions.ts), or "public" for the few open to anyone (health, who is signed in).
 */
export interface ProcedureMeta {
  permission: readonly Permission[] | "public";
}

const t = initTRPC.context<TrpcContext>().meta<ProcedureMeta>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const serviceError = serviceErrorOf(error);
    // Unknown failures keep tRPC's code but never their message: the cause is logged (see route), not shown.
    const message = serviceError ? trpcMessageOf(serviceError) : error.code === "INTERNAL_SERVER_ERROR" ? "Something went wrong on our side." : shape.message;
    return {
      ...shape,
      message,
      data: {
        ...shape.data,
        stack: undefined,
        code: serviceError?.code ?? shape.data.code,
        errors: serviceError?.errors,
        // A code's own members (`refundable` of refund_exceeds_payment), as REST's problem carries them.
        ...serviceError?.options.members,
      },
    };
  },
});

export const createRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Turns ServiceErrors thrown by verbs, input refused by a procedure's schema, and an unreachable database
 * (SERVICE_UNAVAILABLE, as REST's 503), into tRPC errors with the matching code, so the error formatter answers with the catalogue's code and field errors.
 */
const serviceErrors = t.middleware(async ({ ctx, path, next, getRawInput }) => {
  const result = await next();
  if (result.ok) return result;
  const cause = result.error.cause;
  const submission = isSubmissionShape(await getRawInput().catch(() => undefined));
  const serviceError = isServiceError(cause) ? cause : (inputValidationErrorOf(result.error, submission) ?? databaseUnavailableError(cause));
  if (serviceError?.code === "forbidden" || (!serviceError && result.error.code === "FORBIDDEN")) {
    await auditRefusedCall(ctx, path, serviceError ?? result.error);
  }
  if (serviceError) throw toTrpcError(serviceError);
  return result;
});

/**
 * A signed-in person's call refused as forbidden (their role lacks the permission, raising their own role, a
 * mutation while viewing as a merchant) in the audit log of the merchant it was for, as `dashboard.call_refused`
 * naming the procedure: once per person and procedure a window (recordRefusal). Staff in their console: the log of
 * no one merchant.
 */
async function auditRefusedCall(ctx: TrpcContext, path: string, refusal: Error) {
  const session = ctx.session;
  if (!session) return;
  const side = merchantSideOf(session, ctx.runtime.now(), ctx.livemode);
  if (!side && session.role !== "staff") return;
  const actor: Actor = side?.actor ?? { type: "staff", userId: session.id, sessionId: session.sessionId };
  const permission = isServiceError(refusal) ? refusal.options.members?.permission : undefined;
  await recordRefusal({
    ctx: createServiceContext(ctx.runtime, actor, ctx.requestId, ctx.client),
    input: { action: "dashboard.call_refused", targetType: "procedure", targetId: path, details: { reason: refusal.message, ...(permission ? { permission } : {}) } },
  });
}

/**
 * REST's input guard for every procedure, before its schema: strings PostgreSQL cannot store (NUL, unpaired
 * surrogates) would otherwise reach a query and come back as a 500, and absurd nesting would reach zod.
 */
const storableInput = t.middleware(async ({ getRawInput, next }) => {
  const raw = await getRawInput();
  // A form submission's input is checked as the procedure's input (`input.name`); its key by its schema.
  const refused = guardInput("input", isSubmissionShape(raw) ? raw.input : raw);
  if (refused.length > 0) throw new ValidationError(refused);
  return next();
});

/** While a staff session views a merchant, nothing is changed through any procedure (trpc/view-as.ts). */
const readOnlyWhileViewingAs = t.middleware(({ ctx, type, path, next }) => {
  refuseMutationWhileViewingAs(ctx.session, ctx.runtime.now(), { type, path });
  return next();
});

const baseProcedure = t.procedure.use(serviceErrors).use(storableInput).use(readOnlyWhileViewingAs);

/** Open to anyone, signed in or not: health and "who is signed in". */
export const publicProcedure = baseProcedure.meta({ permission: "public" });

/** Refused: FORBIDDEN with code `forbidden`, naming the permission (the member's role lacks it). */
function refuse(permission: Permission): never {
  throw new ServiceError("forbidden", `Your role may not do this: it needs the ${permission} permission.`, { members: { permission } });
}

/**
 * Counts a signed-in user's call against RATE_LIMIT_PER_USER; over it, the call is refused with
 * `rate_limited` (TOO_MANY_REQUESTS, and Retry-After on the HTTP answer: trpcResponseMeta) before any work.
 */
async function countCall(ctx: TrpcContext, session: SessionUser): Promise<void> {
  const policy = dashboardUserPolicy(ctx.runtime.env.RATE_LIMIT_PER_USER);
  await rateLimitsFor(ctx.runtime).consume([{ policy, subject: session.id }]);
}

/** After a mutation (done or failed), the user's next reads see what it changed, even from a replica. */
async function readsFollow<T>(type: string, runtime: Runtime, actor: Actor, result: Promise<T>): Promise<T> {
  try {
    return await result;
  } finally {
    if (type === "mutation") noteWrite(runtime, actor);
  }
}

/**
 * A signed-in member of a merchant's team whose role may use `permission` (in test mode, `test_mode.write`
 * grants the writes of TEST_MODE_RESOURCES: `may`). The service context acts for the merchant their session acts
 * for only, in the switch's mode. Every merchant procedure is built as `merchantProcedure("<permission>")`.
 * Staff viewing as a merchant read what the team's viewer may read, as themselves, in live mode: which merchant a
 * session acts for, as whom, is decided in one place (auth/view-as.ts, `merchantSideOf`).
 */
export const merchantProcedure = (permission: Permission) =>
  baseProcedure.meta({ permission: [permission] }).use(async ({ ctx, next, type }) => {
    const session = ctx.session;
    if (!session) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in as a merchant." });
    const side = merchantSideOf(session, ctx.runtime.now(), ctx.livemode);
    if (!side?.may(permission)) refuse(permission);
    await countCall(ctx, session);
    const service = createServiceContext(ctx.runtime, side.actor, ctx.requestId, ctx.client);
    const merchantSession = side.viewingAs ? { ...session, merchantId: side.merchantId } : session;
    // For a permission the input needs beyond this one (auth/permissions.ts, InputPermission): `requireAlso`.
    const requireAlso = <Input>(extra: InputPermission<Input>, input: Input) => {
      if (extra.when(input) && !side.may(extra.permission)) refuse(extra.permission);
    };
    return readsFollow(type, ctx.runtime, service.actor, next({ ctx: { ...ctx, session: merchantSession, service, requireAlso } }));
  });

/**
 * Support staff whose staff role holds `permission` (a `staff.*` one); verbs acting on one merchant's data take a
 * context built with `forMerchant`. Staff act in live mode (docs/test-mode.md): the switch is the merchant's.
 */
export const staffProcedure = (permission: Permission & `staff.${string}`) =>
  baseProcedure.meta({ permission: [permission] }).use(async ({ ctx, next, type }) => {
  const session = ctx.session;
  if (!session) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in as support staff." });
  if (session.role !== "staff" || !may(session.access, permission, true)) refuse(permission);
  await countCall(ctx, session);
  const service = createServiceContext(ctx.runtime, { type: "staff", userId: session.id, sessionId: session.sessionId }, ctx.requestId, ctx.client);
  const forMerchant = (merchantId: string) =>
    createServiceContext(ctx.runtime, { type: "staff", userId: session.id, merchantId, sessionId: session.sessionId }, ctx.requestId, ctx.client);
  return readsFollow(type, ctx.runtime, service.actor, next({ ctx: { ...ctx, session, service, forMerchant } }));
});

/**
 * The signed-in user acting on their own account (password, second factors, sessions): any role of either
 * audience, through SELF_SERVICE in the permission table (auth/permissions.ts). Verbs take the user from the
 * context (`requireSelf`), never from input, so no merchant permission is involved.
 */
export const selfProcedure = baseProcedure.meta({ permission: SELF_SERVICE }).use(async ({ ctx, next }) => {
  const session = ctx.session;
  if (!session) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in first." });
  if (!holdsAny(session.access, SELF_SERVICE)) refuse(SELF_SERVICE.find((permission) => permission.startsWith(session.role === "staff" ? "staff." : "own_"))!);
  await countCall(ctx, session);
  const actor =
    session.role === "staff"
      ? ({ type: "staff", userId: session.id, sessionId: session.sessionId } as const)
      : ({ type: "user", userId: session.id, merchantId: session.merchantId!, sessionId: session.sessionId } as const);
  const service = createServiceContext(ctx.runtime, actor, ctx.requestId, ctx.client);
  return next({ ctx: { ...ctx, session, service } });
});
