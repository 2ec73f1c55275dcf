import { routeHandlers } from "@/server/http/next";
import { healthReady } from "@/server/http/routes/health";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(healthReady);
