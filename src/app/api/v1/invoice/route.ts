import { routeHandlers } from "@/server/http/next";
import { createInvoiceRoute, listInvoicesRoute } from "@/server/http/routes/invoices";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(createInvoiceRoute, listInvoicesRoute);
