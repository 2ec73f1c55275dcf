import { routeHandlers } from "@/server/http/next";
import { health } from "@/server/http/routes/health";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(health);
