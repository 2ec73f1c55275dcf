import { routeHandlers } from "@/server/http/next";
import { sendTestWebhookRoute } from "@/server/http/routes/webhooks";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(sendTestWebhookRoute);
