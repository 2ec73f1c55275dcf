import { routeHandlers } from "@/server/http/next";
import { getMerchantRoute, updateMerchantRoute } from "@/server/http/routes/merchants";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(getMerchantRoute, updateMerchantRoute);
