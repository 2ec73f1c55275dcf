import { routeHandlers } from "@/server/http/next";
import { voidInvoiceRoute } from "@/server/http/routes/invoices";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(voidInvoiceRoute);
