import { startExpirySweeper } from "@/server/invoices/expiry-sweeper";
import type { Runtime } from "@/server/runtime";
import type { DeliveryDeps } from "./attempt";
import { startEventPruner } from "./event-pruner";
import { startWebhookWorker, WORKER_DEFAULTS, type WebhookWorker, type WorkerOptions } from "./worker";

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

/** What a web process runs beside requests: the webhook worker, unless WEBHOOK_WORKER=off (separate workers). */
export function startBackgroundWork(runtime: Runtime): void {
  if (runtime.env.WEBHOOK_WORKER === "inline") startWorkerFor(runtime);
  // Invoice expiry follows the worker setting: web processes sweep when they run the worker inline.
  if (runtime.env.WEBHOOK_WORKER === "inline") startExpirySweeper(runtime);
  // So does event retention (docs/webhooks.md, "Event log").
  if (runtime.env.WEBHOOK_WORKER === "inline") startEventPruner(runtime);
}
