import { unredacted } from "@/server/log";
import { claimDueDeliveries, type ClaimedDelivery } from "./claim";
import { attemptDelivery, createAttemptRecorder, type DeliveryDeps } from "./attempt";
import { CONNECT_TIMEOUT_MS, createAgentPool, TOTAL_TIMEOUT_MS } from "./http-sender";

export interface WorkerOptions {
  /** Attempts in flight at once (per process). */
  concurrency?: number;
  /** How often to look for due deliveries when there is nothing to do. */
  pollIntervalMs?: number;
  /** How long a claim holds; must outlast the longest attempt (DNS + connect + 15 s). */
  leaseMs?: number;
}

/** How often a worker's claim is a full one: expired leases too, and due rows without a lower bound. */
const FULL_CLAIM_MS = 1_000;
const DUE_FROM_SLACK_MS = 1_000;

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
export function startWebhookWorker(baseDeps: DeliveryDeps, options: WorkerOptions = {}): WebhookWorker {
  const { concurrency, pollIntervalMs, leaseMs } = { ...WORKER_DEFAULTS, ...options };
  const longestAttempt = (baseDeps.send?.connectTimeoutMs ?? CONNECT_TIMEOUT_MS) + (baseDeps.send?.totalTimeoutMs ?? TOTAL_TIMEOUT_MS);
  if (leaseMs <= longestAttempt) {
    throw new Error(`The lease (${leaseMs} ms) must outlast the longest attempt (${longestAttempt} ms)`);
  }
  // Keep-alive connections and batched records for this worker's attempts; the pool closes when it stops.
  const ownAgents = baseDeps.agents ? null : createAgentPool();
  const deps: DeliveryDeps = {
    ...baseDeps,
    agents: baseDeps.agents ?? ownAgents!,
    recorder: baseDeps.recorder ?? createAttemptRecorder(baseDeps),
  };
  // Claim in batches: with a backlog, wait until a quarter of the slots are free rather than claim one
  // delivery per statement as each attempt ends.
  const claimBatch = Math.max(1, Math.floor(concurrency / 4));
  // Attempts not yet recorded (what `stop` waits for), and of those the ones whose request is still out:
  // `concurrency` bounds the requests; an attempt being recorded frees its slot for the next claim. The
  // recording backlog is bounded too (a slow database slows claiming down).
  const inFlight = new Set<Promise<void>>();
  // One line per attempt, of ids, codes and timings only (the receiver's answer is not logged): no redaction.
  const attemptLog = unredacted(deps.log);
  let sending = 0;
  const maxUnrecorded = 2 * concurrency;
  const freeSlots = () => Math.max(0, Math.min(concurrency - sending, maxUnrecorded - inFlight.size));
  let running = true;
  let wakeUp: (() => void) | null = null;
  let pendingWake = false;
  let waitingForSlots = false;
  let lastFullClaim = -Infinity;
  let dueFrom: Date | undefined;

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

  const slotFreed = () => {
    // Wake the loop when enough slots are free for a batch (or all of them, whatever the batch).
    if (waitingForSlots && (freeSlots() >= claimBatch || sending === 0)) wake();
  };
  const run = (delivery: ClaimedDelivery) => {
    sending++;
    let sent = false;
    const markSent = () => {
      if (sent) return;
      sent = true;
      sending--;
      slotFreed();
    };
    const task = attemptDelivery(deps, delivery, { sent: markSent })
      .then(({ result, outcome }) => {
        attemptLog.info(
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
        if (sent) slotFreed();
        else markSent();
      });
    inFlight.add(task);
  };

  const loop = async () => {
    while (running) {
      const free = freeSlots();
      const claiming = free >= claimBatch || (free > 0 && sending === 0);
      let claimed: ClaimedDelivery[] = [];
      let claimFailed = false;
      if (claiming) {
        try {
          const now = deps.now();
          // Once a second: expired leases (a worker died mid-attempt; rare, and they wait a lease anyway) and
          // every due row however old (no lower bound). In between, only rows due since just before the oldest
          // one claimed last time: no walk over the dead index entries that everything already claimed leaves
          // behind until VACUUM.
          const full = now.getTime() - lastFullClaim >= FULL_CLAIM_MS || now.getTime() < lastFullClaim;
          claimed = await claimDueDeliveries(deps.db, { limit: free, leaseMs, now, expired: full, dueFrom: full ? undefined : dueFrom });
          if (full) lastFullClaim = now.getTime();
          const oldest = claimed.reduce<number | null>(
            (min, delivery) => (delivery.nextAttemptAt && (min === null || delivery.nextAttemptAt.getTime() < min) ? delivery.nextAttemptAt.getTime() : min),
            null,
          );
          // Slack for rows committed a little out of order (clocks of other processes, transactions in flight).
          if (oldest !== null) dueFrom = new Date(oldest - DUE_FROM_SLACK_MS);
        } catch (error) {
          claimFailed = true;
          deps.log.error({ err: error }, "claiming webhook deliveries failed");
        }
      }
      if (!running) {
        // Claimed during shutdown: attempt them anyway rather than leave them to the lease.
        claimed.forEach(run);
        break;
      }
      claimed.forEach(run);
      if (claiming && (claimFailed || claimed.length < free)) {
        // Nothing more due now: wait for the next poll (or a wake-up: an enqueue or retry in this process).
        waitingForSlots = false;
        await sleep(pollIntervalMs);
      } else if (!claiming || freeSlots() < claimBatch) {
        // More may be due, but too few slots are free: wait until requests end (the poll bounds the wait).
        waitingForSlots = true;
        await sleep(pollIntervalMs);
        waitingForSlots = false;
      }
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
      await ownAgents?.close();
    },
  };
}

/** Claims and attempts everything due now, until nothing is: for tests and one-shot runs. */
export async function deliverDueNow(baseDeps: DeliveryDeps, options: { leaseMs?: number; concurrency?: number } = {}): Promise<number> {
  const agents = baseDeps.agents ?? createAgentPool();
  const deps: DeliveryDeps = { ...baseDeps, agents };
  let total = 0;
  try {
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
  } finally {
    if (agents !== baseDeps.agents) await agents.close();
  }
}
