import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/router";

type Outputs = inferRouterOutputs<AppRouter>;
export type AccountSecurity = Outputs["account"]["security"];
export type OwnSession = Outputs["account"]["sessions"][number];
