import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/router";

type Outputs = inferRouterOutputs<AppRouter>;

/** Deliveries, their attempts and endpoints as the dashboard receives them: the routers' outputs, the API's shapes. */
export type DeliveryView = Outputs["webhooks"]["deliveries"]["data"][number];
export type AttemptView = Outputs["webhooks"]["delivery"]["attempts"][number];
export type EndpointView = Outputs["webhookEndpoints"]["list"]["data"][number];
export type EndpointHealthView = Outputs["webhookEndpoints"]["health"][number];
