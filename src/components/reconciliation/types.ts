import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/router";

/** A report's line as the dashboard receives it: the router's output, the API's ReconciliationLine. */
export type LineView = inferRouterOutputs<AppRouter>["reconciliation"]["get"]["lines"][number];
