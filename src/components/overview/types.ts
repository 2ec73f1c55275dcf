import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/router";

/** The merchant statistics, as the payments router answers them. */
export type Stats = inferRouterOutputs<AppRouter>["payments"]["stats"];
