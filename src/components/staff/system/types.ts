import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/router";

export type SystemView = inferRouterOutputs<AppRouter>["staff"]["system"];
