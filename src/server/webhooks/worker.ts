import { claimDueDeliveries, type ClaimedDelivery } from "./claim";
import { attemptDelivery, type DeliveryDeps } from "./attempt";
import { CONNECT_TIMEOUT_MS, TOTAL_TIMEOUT_MS } from "./http-sender";

export interface WorkerOptions {
  /** Attempts in flight at once (per process). */
  concurrency?: number;
  /** How often to look for due deliveries when there is nothing to do. */
  pollIntervalMs?: number;
  /** How long a claim holds; must outlast the longest attempt (DNS + connect + 15 s). */
  leaseMs?: number;
}

export const WORKER_DEFAULTS = { concurrency: 8, pollIntervalMs: 1_000, leaseMs: 60_000 } as const;

export interface WebhookWorker {
  /** Look for due deliveries now instead of at the next poll (after a retry or an enqueue in this process). */
  wake(): void;
  /** Stops claiming, waits for the attempts in flight to be recorded, then resolves. */
  stop(): Promise<void>;
}

/**
 * The outbox worker: a loop that claims due deliveries (bounded by `concurrency`), attempts each and
 * records the result. Any number of these may run against one database, in web processes and in
 * `npm run worker` processes alike; the claim query keeps them from delivering one row twice.
 */
export function startWebhookWorker(deps: DeliveryDeps, options: WorkerOptions = {}): WebhookWorker {
  const { concurrency, pollIntervalMs, leaseMs } = { ...WORKER_DEFAULTS, ...options };
  const longestAttempt = (deps.send?.connectTimeoutMs ?? CONNECT_TIMEOUT_MS) + (deps.send?.totalTimeoutMs ?? TOTAL_TIMEOUT_MS);
  if (leaseMs <= longestAttempt) {
    throw new Error(`The lease (${leaseMs} ms) must outlast the longest attempt (${longestAttempt} ms)`);
  }
  const inFlight = new Set<Promise<void>>();
  let running = true;
  let wakeUp: (() => void) | null = null;
  let pendingWake = false;

  const wake = () => {
    if (wakeUp) wakeUp();
    else pendingWake = true;
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (pendingWake) {
        pendingWake = false;
        resolve();
        return;
      }
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });

  const run = (delivery: ClaimedDelivery) => {
    const task = attemptDelivery(deps, delivery)
      .then(({ result, outcome }) => {
        deps.log.info(
          { deliveryId: delivery.id, result, statusCode: outcome.statusCode, errorClass: outcome.errorClass, latencyMs: outcome.latencyMs },
          "webhook attempt",
        );
      })
      .catch((error: unknown) => {
        // The claim stays until its lease runs out; then the delivery is attempted again.
        deps.log.error({ err: error, deliveryId: delivery.id }, "webhook attempt could not be made or recorded");
      })
      .finally(() => {
        inFlight.delete(task);
        wake();
      });
    inFlight.add(task);
  };

  const loop = async () => {
    while (running) {
      const free = concurrency - inFlight.size;
      let claimed: ClaimedDelivery[] = [];
      if (free > 0) {
        try {
          claimed = await claimDueDeliveries(deps.db, { limit: free, leaseMs, now: deps.now() });
        } catch (error) {
          deps.log.error({ err: error }, "claiming webhook deliveries failed");
        }
      }
      if (!running) {
        // Claimed during shutdown: attempt them anyway rather than leave them to the lease.
        claimed.forEach(run);
        break;
      }
      claimed.forEach(run);
      // Full, or nothing due: wait for a slot, a wake-up or the next poll.
      if (claimed.length === 0 || inFlight.size >= concurrency) await sleep(pollIntervalMs);
    }
  };
  const looping = loop();

  return {
    wake,
    async stop() {
      running = false;
      wakeUp?.();
      await looping;
      await Promise.allSettled([...inFlight]);
    },
  };
}

/** Claims and attempts everything due now, until nothing is: for tests and one-shot runs. */
export async function deliverDueNow(deps: DeliveryDeps, options: { leaseMs?: number; concurrency?: number } = {}): Promise<number> {
  let total = 0;
  for (;;) {
    const claimed = await claimDueDeliveries(deps.db, {
      limit: options.concurrency ?? WORKER_DEFAULTS.concurrency,
      leaseMs: options.leaseMs ?? WORKER_DEFAULTS.leaseMs,
      now: deps.now(),
    });
    if (claimed.length === 0) return total;
    await Promise.all(claimed.map((delivery) => attemptDelivery(deps, delivery)));
    total += claimed.length;
  }
}
