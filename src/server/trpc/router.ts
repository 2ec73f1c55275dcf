import { callableProcedures, declaredPermissions, sessionPermissions } from "./callable";
import { createRouter, publicProcedure } from "./init";
import { apiKeysRouter } from "./routers/api-keys";
import { auditLogRouter } from "./routers/audit-log";
import { healthRouter } from "./routers/health";
import { invoicesRouter } from "./routers/invoices";
import { merchantsRouter } from "./routers/merchants";
import { paymentsRouter } from "./routers/payments";
import { webhooksRouter } from "./routers/webhooks";
import { webhookEndpointsRouter } from "./routers/webhook-endpoints";
import { accountRouter } from "./routers/account";
import { deliveriesRouter } from "./routers/deliveries";
import { eventsRouter } from "./routers/events";
import { publishedKeysRouter } from "./routers/published-keys";
import { reconciliationRouter } from "./routers/reconciliation";
import { refundsRouter } from "./routers/refunds";
import { staffRouter } from "./routers/staff";
import { teamRouter } from "./routers/team";

const features = {
  health: healthRouter,
  merchants: merchantsRouter,
  apiKeys: apiKeysRouter,
  payments: paymentsRouter,
  invoices: invoicesRouter,
  webhooks: webhooksRouter,
  webhookEndpoints: webhookEndpointsRouter,
  account: accountRouter,
  staff: staffRouter,
  events: eventsRouter,
  deliveries: deliveriesRouter,
  publishedKeys: publishedKeysRouter,
  reconciliation: reconciliationRouter,
  refunds: refundsRouter,
  team: teamRouter,
  auditLog: auditLogRouter,
};

/** Every feature procedure's declared permission, read once from the procedures themselves. */
const declared = declaredPermissions(createRouter(features));

/**
 * `access.procedures`: the paths of the procedures the signed-in person may call here and now (their role, the
 * dashboard's mode). The client offers an action only when the procedure it calls is among them
 * (components/shell/use-permissions.ts). Empty when signed out.
 */
const accessRouter = createRouter({
  procedures: publicProcedure.query(({ ctx }) => callableProcedures(declared, sessionPermissions(ctx))),
});

/** The dashboard's API: thin routers over the same service verbs as REST. */
export const appRouter = createRouter({ ...features, access: accessRouter });

export type AppRouter = typeof appRouter;
