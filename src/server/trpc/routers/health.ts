import { checkReadiness } from "@/server/services/health/check-readiness";
import { createServiceContext } from "@/server/services/create-context";
import { createRouter, publicProcedure } from "../init";

/** The dashboard mentions the replica's lag past this (docs/operations.md, "Pooler and replica": past 5 s a user may notice). */
export const REPLICA_LAG_SHOWN_MS = 5_000;

export const healthRouter = createRouter({
  ready: publicProcedure.query(({ ctx }) =>
    checkReadiness({ ctx: createServiceContext(ctx.runtime, { type: "anonymous" }, ctx.requestId) }),
  ),
  /**
   * How far behind the read replica serving lists and statistics is, in whole seconds, when that is more than
   * REPLICA_LAG_SHOWN_MS (the dashboard says so); null otherwise, and with no replica or reads on the primary.
   */
  replicaLag: publicProcedure.query(({ ctx }) => {
    const lag = ctx.runtime.database.reads.servingLagMs();
    return { lagSeconds: lag !== null && lag > REPLICA_LAG_SHOWN_MS ? Math.floor(lag / 1000) : null };
  }),
  /** Who the dashboard thinks is signed in (null when nobody). */
  session: publicProcedure.query(({ ctx }) => ctx.session),
});
