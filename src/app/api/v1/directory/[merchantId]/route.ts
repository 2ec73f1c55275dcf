import { routeHandlers } from "@/server/http/next";
import { keyDirectoryRoute } from "@/server/http/routes/published-keys";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(keyDirectoryRoute);
