import { routeHandlers } from "@/server/http/next";
import { merchantStatsRoute } from "@/server/http/routes/payments";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(merchantStatsRoute);
