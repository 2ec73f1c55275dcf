import { routeHandlers } from "@/server/http/next";
import { publishKeysRoute } from "@/server/http/routes/published-keys";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(publishKeysRoute);
