import type { AnyRoute } from "../route";
import { health, healthReady } from "./health";
import { invoiceRoutes } from "./invoices";
import { merchantRoutes } from "./merchants";
import { paymentRoutes } from "./payments";
import { publishedKeyRoutes } from "./published-keys";
import { reconciliationRoutes } from "./reconciliation";
import { webhookRoutes } from "./webhooks";
import { openApiRoute } from "@/server/openapi/route";

/** Every REST route. The OpenAPI document, the security suite and the contract tests all read this list. */
export const routes: readonly AnyRoute[] = [
  health,
  healthReady,
  openApiRoute,
  ...merchantRoutes,
  ...publishedKeyRoutes,
  ...paymentRoutes,
  ...invoiceRoutes,
  ...webhookRoutes,
  ...reconciliationRoutes,
];
