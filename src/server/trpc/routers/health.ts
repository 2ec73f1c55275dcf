import { checkReadiness } from "@/server/services/health/check-readiness";
import { createServiceContext } from "@/server/services/create-context";
import { createRouter, publicProcedure } from "../init";

export const healthRouter = createRouter({
  ready: publicProcedure.query(({ ctx }) =>
    checkReadiness({ ctx: createServiceContext(ctx.runtime, { type: "anonymous" }, ctx.requestId) }),
  ),
  /** Who the dashboard thinks is signed in (null when nobody). */
  session: publicProcedure.query(({ ctx }) => ctx.session),
});
