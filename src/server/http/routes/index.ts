import type { AnyRoute } from "../route";
import { health, healthReady } from "./health";
import { merchantRoutes } from "./merchants";
import { paymentRoutes } from "./payments";
import { publishedKeyRoutes } from "./published-keys";
import { webhookRoutes } from "./webhooks";

/** Every REST route. The OpenAPI document, the security suite and the contract tests all read this list. */
export const routes: readonly AnyRoute[] = [
  health,
  healthReady,
  ...merchantRoutes,
  ...publishedKeyRoutes,
  ...paymentRoutes,
  ...webhookRoutes,
];
