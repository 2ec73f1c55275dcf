import { routeHandlers } from "@/server/http/next";
import { revokePublishedKeyRoute } from "@/server/http/routes/published-keys";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(revokePublishedKeyRoute);
