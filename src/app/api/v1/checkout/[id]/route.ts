import { routeHandlers } from "@/server/http/next";
import { getCheckoutRoute } from "@/server/http/routes/invoices";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(getCheckoutRoute);
