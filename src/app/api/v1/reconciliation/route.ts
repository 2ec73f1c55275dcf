import { routeHandlers } from "@/server/http/next";
import { createReconciliationRoute } from "@/server/http/routes/reconciliation";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(createReconciliationRoute);
