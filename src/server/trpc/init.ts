import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { newId } from "@/lib/ids";
import type { SessionUser } from "@/server/auth/session";
import type { Runtime } from "@/server/runtime";
import { createServiceContext } from "@/server/services/create-context";
import { guardInput } from "@/server/services/input-guard";
import { dashboardUserPolicy, rateLimitsFor } from "@/server/rate-limit/limits";
import { databaseUnavailableError } from "@/server/services/database-unavailable";
import { isServiceError, ValidationError } from "@/server/services/errors";
import { inputValidationErrorOf, serviceErrorOf, toTrpcError, trpcMessageOf } from "./errors";

export interface TrpcContext {
  runtime: Runtime;
  session: SessionUser | null;
  requestId: string;
  /** The dashboard's test-mode switch (auth/dashboard-mode.ts): merchant procedures act in this mode. */
  livemode: boolean;
}

export function createTrpcContext(runtime: Runtime, session: SessionUser | null, livemode = true): TrpcContext {
  return { runtime, session, requestId: newId("request"), livemode };
}

const t = initTRPC.context<TrpcContext>().create({
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
const serviceErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok) return result;
  const cause = result.error.cause;
  const serviceError = isServiceError(cause) ? cause : (inputValidationErrorOf(result.error) ?? databaseUnavailableError(cause));
  if (serviceError) throw toTrpcError(serviceError);
  return result;
});

/**
 * REST's input guard for every procedure, before its schema: strings PostgreSQL cannot store (NUL, unpaired
 * surrogates) would otherwise reach a query and come back as a 500, and absurd nesting would reach zod.
 */
const storableInput = t.middleware(async ({ getRawInput, next }) => {
  const refused = guardInput("input", await getRawInput());
  if (refused.length > 0) throw new ValidationError(refused);
  return next();
});

export const publicProcedure = t.procedure.use(serviceErrors).use(storableInput);

/**
 * Counts a signed-in user's call against RATE_LIMIT_PER_USER; over it, the call is refused with
 * `rate_limited` (TOO_MANY_REQUESTS, and Retry-After on the HTTP answer: trpcResponseMeta) before any work.
 */
async function countCall(ctx: TrpcContext, session: SessionUser): Promise<void> {
  const policy = dashboardUserPolicy(ctx.runtime.env.RATE_LIMIT_PER_USER);
  await rateLimitsFor(ctx.runtime).consume([{ policy, subject: session.id }]);
}

/** A signed-in merchant user; the service context acts for their merchant only, in the switch's mode. */
export const merchantProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const session = ctx.session;
  if (!session || session.role !== "merchant" || !session.merchantId) {
    throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in as a merchant." });
  }
  await countCall(ctx, session);
  const service = createServiceContext(
    ctx.runtime,
    { type: "user", userId: session.id, merchantId: session.merchantId, livemode: ctx.livemode },
    ctx.requestId,
  );
  return next({ ctx: { ...ctx, session, service } });
});

/**
 * Support staff; verbs acting on one merchant's data take a context built with `forMerchant`. Staff act in live
 * mode (docs/test-mode.md): the switch is the merchant's.
 */
export const staffProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const session = ctx.session;
  if (!session || session.role !== "staff") throw new TRPCError({ code: "FORBIDDEN", message: "Support staff only." });
  await countCall(ctx, session);
  const service = createServiceContext(ctx.runtime, { type: "staff", userId: session.id }, ctx.requestId);
  const forMerchant = (merchantId: string) =>
    createServiceContext(ctx.runtime, { type: "staff", userId: session.id, merchantId }, ctx.requestId);
  return next({ ctx: { ...ctx, session, service, forMerchant } });
});
