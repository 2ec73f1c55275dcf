import { routeHandlers } from "@/server/http/next";
import { openApiRoute } from "@/server/openapi/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(openApiRoute);
