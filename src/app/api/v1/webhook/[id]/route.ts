import { routeHandlers } from "@/server/http/next";
import { getDeliveryRoute } from "@/server/http/routes/webhooks";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(getDeliveryRoute);
