import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/router";

/** An invoice as the dashboard receives it: the routers' output, the API's Invoice. */
export type InvoiceView = inferRouterOutputs<AppRouter>["invoices"]["list"]["data"][number];
