import { routeHandlers } from "@/server/http/next";
import { retryDeliveryRoute } from "@/server/http/routes/webhooks";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(retryDeliveryRoute);
