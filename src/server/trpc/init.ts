import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { newId } from "@/lib/ids";
import type { SessionUser } from "@/server/auth/session";
import type { Runtime } from "@/server/runtime";
import { createServiceContext } from "@/server/services/create-context";
import { isServiceError } from "@/server/services/errors";
import { serviceErrorOf, toTrpcError } from "./errors";

export interface TrpcContext {
  runtime: Runtime;
  session: SessionUser | null;
  requestId: string;
}

export function createTrpcContext(runtime: Runtime, session: SessionUser | null): TrpcContext {
  return { runtime, session, requestId: newId("request") };
}

const t = initTRPC.context<TrpcContext>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const serviceError = serviceErrorOf(error);
    // Unknown failures keep tRPC's code but never their message: the cause is logged (see route), not shown.
    const message = serviceError?.detail ?? (error.code === "INTERNAL_SERVER_ERROR" ? "Something went wrong on our side." : shape.message);
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

/** Turns ServiceErrors thrown by verbs into tRPC errors with the matching code. */
const serviceErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && isServiceError(result.error.cause)) throw toTrpcError(result.error.cause);
  return result;
});

export const publicProcedure = t.procedure.use(serviceErrors);

/** A signed-in merchant user; the service context acts for their merchant only. */
export const merchantProcedure = publicProcedure.use(({ ctx, next }) => {
  const session = ctx.session;
  if (!session || session.role !== "merchant" || !session.merchantId) {
    throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in as a merchant." });
  }
  const service = createServiceContext(
    ctx.runtime,
    { type: "user", userId: session.id, merchantId: session.merchantId },
    ctx.requestId,
  );
  return next({ ctx: { ...ctx, session, service } });
});

/** Support staff; verbs acting on one merchant's data take a context built with `forMerchant`. */
export const staffProcedure = publicProcedure.use(({ ctx, next }) => {
  const session = ctx.session;
  if (!session || session.role !== "staff") throw new TRPCError({ code: "FORBIDDEN", message: "Support staff only." });
  const service = createServiceContext(ctx.runtime, { type: "staff", userId: session.id }, ctx.requestId);
  const forMerchant = (merchantId: string) =>
    createServiceContext(ctx.runtime, { type: "staff", userId: session.id, merchantId }, ctx.requestId);
  return next({ ctx: { ...ctx, session, service, forMerchant } });
});
