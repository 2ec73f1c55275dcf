import { routeHandlers } from "@/server/http/next";
import { registerMerchantRoute } from "@/server/http/routes/merchants";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(registerMerchantRoute);
