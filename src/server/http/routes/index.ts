import { generateOpenApiDocument, type OpenApiDocument } from "@/server/openapi/document";
import type { AnyRoute } from "../route";
import { apiKeyRoutes } from "./api-keys";
import { auditLogRoutes } from "./audit-log";
import { eventRoutes } from "./events";
import { health, healthReady } from "./health";
import { invoiceRoutes } from "./invoices";
import { merchantRoutes } from "./merchants";
import { openApiRoute } from "./openapi";
import { paymentRoutes } from "./payments";
import { publishedKeyRoutes } from "./published-keys";
import { reconciliationRoutes } from "./reconciliation";
import { refundRoutes } from "./refunds";
import { testModeRoutes } from "./test-mode";
import { webhookEndpointRoutes } from "./webhook-endpoints";
import { webhookRoutes } from "./webhooks";

/**
 * Every REST route: the route handlers under src/app/api/v1 answer from this list (their files are generated
 * from it: `npm run routes:generate`), and the OpenAPI document, the security suite and the contract tests read
 * it. A route exists once it is declared here.
 */
export const routes: readonly AnyRoute[] = [
  health,
  healthReady,
  openApiRoute(() => openApiDocument()),
  ...merchantRoutes,
  ...apiKeyRoutes,
  ...publishedKeyRoutes,
  ...paymentRoutes,
  ...invoiceRoutes,
  ...refundRoutes,
  ...webhookRoutes,
  ...webhookEndpointRoutes,
  ...eventRoutes,
  ...reconciliationRoutes,
  ...testModeRoutes,
  ...auditLogRoutes,
];

let document: OpenApiDocument | undefined;

/** The document of every route, built once per process (it only changes with the code); /docs renders it. */
export function openApiDocument(): OpenApiDocument {
  document ??= generateOpenApiDocument(routes);
  return document;
}
