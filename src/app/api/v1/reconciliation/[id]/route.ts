import { routeHandlers } from "@/server/http/next";
import { getReconciliationRoute } from "@/server/http/routes/reconciliation";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(getReconciliationRoute);
