import { routeHandlers } from "@/server/http/next";
import { verifyWebhookRoute } from "@/server/http/routes/webhooks";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(verifyWebhookRoute);
