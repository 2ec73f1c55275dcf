import type { Runtime } from "@/server/runtime";
import { disableEndpoint } from "@/server/services/webhook-endpoints/state";
import type { DeliveryDeps } from "@/server/webhooks/attempt";
import { startWebhookWorker, WORKER_DEFAULTS, type WebhookWorker, type WorkerOptions } from "@/server/webhooks/worker";
import { BACKGROUND_JOBS } from "./jobs";
import { startScheduler, type Scheduler } from "./scheduler";

/**
 * What a process runs beside requests, started by its entry point and nowhere else: the web process's
 * instrumentation with the inline worker (WEBHOOK_WORKER=inline), and `npm run worker`. Creating a runtime starts
 * nothing. Everything here stops, in reverse order, before the runtime closes the database.
 */
export interface BackgroundWork {
  deliveries: WebhookWorker;
  jobs: Scheduler;
}

/** Starts the webhook delivery worker and the periodic jobs (jobs.ts) on a runtime. */
export function startBackgroundWork(runtime: Runtime, worker: WorkerOptions & { deps?: Partial<DeliveryDeps> } = {}): BackgroundWork {
  const deliveries = startWorkerFor(runtime, worker);
  const jobs = startScheduler(runtime, BACKGROUND_JOBS);
  runtime.log.info({ jobs: BACKGROUND_JOBS.map((job) => job.name) }, "background jobs started");
  return { deliveries, jobs };
}

/** The delivery dependencies of a runtime: its database, logger, clock and webhook configuration. */
export function deliveryDepsFor(runtime: Runtime, overrides: Partial<DeliveryDeps> = {}): DeliveryDeps {
  return {
    db: runtime.database.db,
    log: runtime.log.child({ component: "webhook-worker" }),
    now: runtime.now,
    schedule: runtime.env.WEBHOOK_RETRY_SCHEDULE,
    allowPrivateTargets: runtime.env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    authSecret: runtime.env.AUTH_SECRET,
    signingKeys: runtime.env.WEBHOOK_SIGNING_KEY,
    disableAfterMs: runtime.env.WEBHOOK_DISABLE_AFTER,
    // The engine judges an endpoint's health; disabling it (and telling the merchant) is the service's.
    disableEndpoint,
    ...overrides,
  };
}

/** Starts a worker on a runtime; it stops (finishing its attempts) before the runtime closes the database. */
export function startWorkerFor(
  runtime: Runtime,
  options: WorkerOptions & { deps?: Partial<DeliveryDeps> } = {},
): WebhookWorker {
  const worker = startWebhookWorker(deliveryDepsFor(runtime, options.deps), { listen: runtime.database.listen, ...options });
  runtime.onClose(() => worker.stop());
  runtime.log.info({ concurrency: options.concurrency ?? WORKER_DEFAULTS.concurrency }, "webhook worker started");
  return worker;
}
