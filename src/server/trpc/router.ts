import { createRouter } from "./init";
import { healthRouter } from "./routers/health";

/** The dashboard's API: thin routers over the same service verbs as REST. */
export const appRouter = createRouter({
  health: healthRouter,
});

export type AppRouter = typeof appRouter;
