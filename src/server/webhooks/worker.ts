import { liveSpan, type LiveSpan } from "@/server/db/sql/claim-deliveries";
import { unredacted } from "@/server/log";
import { attemptDelivery, withSigningSecrets, type DeliveryDeps, type LoadedDelivery } from "./attempt";
import { claimDueDeliveries, releaseExpiredLeases } from "./claim";
import { createHeldBackEndpoints } from "./held-back-endpoints";
import { withToday } from "./live-span";
import { endpointKeyOf, endpointKeyText } from "./endpoint-key";
import { CONNECT_TIMEOUT_MS, createAgentPool, TOTAL_TIMEOUT_MS } from "./http-sender";
import { createAttemptRecorder, type AttemptRecorder } from "./record";
import { WAKE_CHANNEL } from "./wake";

/** Subscribes to a notification channel; resolves with the way to unsubscribe (the database handle's `listen`). */
export type Listen = (channel: string, onNotify: () => void) => Promise<() => Promise<void>>;

export interface WorkerOptions {
  /**
   * Requests in flight at once in this process: sized for network waits, not CPU. As many answers again may wait
   * for their records; past that, the worker claims nothing until records catch up.
   */
  concurrency?: number;
  /** Deliveries of one endpoint in flight at once, across every worker on the database. */
  perEndpoint?: number;
  /** How often to look for due deliveries when nothing wakes the worker. */
  pollIntervalMs?: number;
  /** How long a claim holds; must outlast the longest attempt (DNS + connect + 15 s). */
  leaseMs?: number;
  /** Wakes the worker when a delivery becomes due (wake.ts); without it, the worker only polls. */
  listen?: Listen;
}

export const WORKER_DEFAULTS = { concurrency: 256, perEndpoint: 16, pollIntervalMs: 1_000, leaseMs: 60_000 } as const;

/** How often a worker hands the deliveries of dead workers (expired leases) back to the queue, and re-reads the days its claims look in. */
const RELEASE_EVERY_MS = 1_000;

export interface WebhookWorker {
  /** Stops claiming, waits for the attempts in flight to be recorded, then resolves. */
  stop(): Promise<void>;
}

/**
 * The outbox worker: claims due deliveries (fairly across endpoints, within each endpoint's bound and breaker:
 * claim.ts), attempts each and records the result. It claims again when woken — a delivery committed or
 * retried anywhere (a notification), or an attempt ending that held work back — and otherwise once per poll
 * interval. Any
 * number of these may run against one database, in web processes and in `npm run worker` processes alike.
 *
 * Slots: a request holds its worker slot, and its endpoint's, until its answer arrives. A 2xx answer frees both at
 * once (the next claim leaves it out of the endpoint's count: claim.ts) while its record is written in a batch;
 * any other outcome holds them until recorded, so the endpoint's breaker sees a failure before another request goes.
 * Releasing at the answer, not the record, takes the record batch out of every slot's cycle (BENCHMARKS.md, case 5).
 *
 * Memory: at most `concurrency` requests are open, and as many answers wait for their records, each holding its
 * request body and at most 16 KiB of the answer (http-sender.ts); a slow database slows claiming.
 */
export function startWebhookWorker(baseDeps: DeliveryDeps, options: WorkerOptions = {}): WebhookWorker {
  const { concurrency, perEndpoint, pollIntervalMs, leaseMs } = { ...WORKER_DEFAULTS, ...options };
  const longestAttempt = (baseDeps.send?.connectTimeoutMs ?? CONNECT_TIMEOUT_MS) + (baseDeps.send?.totalTimeoutMs ?? TOTAL_TIMEOUT_MS);
  if (leaseMs <= longestAttempt) {
    throw new Error(`The lease (${leaseMs} ms) must outlast the longest attempt (${longestAttempt} ms)`);
  }
  // Keep-alive connections and batched records for this worker's attempts; the pool closes when it stops.
  const ownAgents = baseDeps.agents ? null : createAgentPool();
  const recorder = baseDeps.recorder ?? createAttemptRecorder(baseDeps);
  const deps: DeliveryDeps = { ...baseDeps, agents: baseDeps.agents ?? ownAgents!, recorder };
  // One line per attempt, of ids, codes and timings only (the receiver's answer is not logged): no redaction.
  const attemptLog = unredacted(deps.log);
  /** Every attempt until it is recorded (what `stop` waits for). */
  const inFlight = new Set<Promise<void>>();
  /** The deliveries whose requests await an answer (or whose failure awaits its record). */
  const sending = new Set<string>();
  /** The deliveries answered 2xx whose attempts are being recorded: their endpoint slots are free. */
  const answered = new Set<string>();
  const heldBack = createHeldBackEndpoints(perEndpoint);
  const alarm = createAlarm();
  let running = true;
  let lastRelease = -Infinity;
  /** The days holding live deliveries, as last read (live-span.ts). */
  let liveRead: LiveSpan | null = null;

  const run = (loaded: LoadedDelivery) => {
    const { delivery } = loaded;
    const endpoint = endpointKeyText(endpointKeyOf(delivery));
    heldBack.started(endpoint);
    sending.add(delivery.id);
    // Frees the attempt's worker and endpoint slots (once). Claim again when this frees what held work back: a slot
    // of a full worker, or enough of its endpoint's bound; otherwise a claim would be wasted work.
    const release = () => {
      if (!sending.has(delivery.id)) return;
      const wasFull = sending.size >= concurrency;
      sending.delete(delivery.id);
      const endpointReady = heldBack.ended(endpoint, delivery.moreDue === true);
      if (wasFull || endpointReady) alarm.ring();
    };
    // The batches' recorder, told when the answer is in: a 2xx frees the slots before its record is written.
    const releasingRecorder: AttemptRecorder = {
      record(claim, outcome, sentAt) {
        if (!outcome.ok) return recorder.record(claim, outcome, sentAt);
        answered.add(delivery.id);
        release();
        return recorder.record(claim, outcome, sentAt).finally(() => answered.delete(delivery.id));
      },
    };
    const task = attemptDelivery({ ...deps, recorder: releasingRecorder }, loaded)
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
        release();
        const recordsWereFull = recording() >= concurrency;
        inFlight.delete(task);
        if (recordsWereFull) alarm.ring();
      });
    inFlight.add(task);
  };
  /** Attempts answered and waiting for their records. */
  const recording = () => inFlight.size - sending.size;

  /** Claims into the free slots and starts the attempts; true when it filled them (more may be due). */
  const claimAndStart = async (): Promise<boolean> => {
    const free = recording() >= concurrency ? 0 : concurrency - sending.size;
    if (free <= 0) return false;
    const now = deps.now();
    if (Math.abs(now.getTime() - lastRelease) >= RELEASE_EVERY_MS) {
      await releaseExpiredLeases(deps.db, now);
      liveRead = await liveSpan(deps.db);
      lastRelease = now.getTime();
    }
    heldBack.claiming();
    const claimed = await claimDueDeliveries(deps.db, { limit: free, leaseMs, now, perEndpoint, live: withToday(liveRead, now), answered: [...answered] });
    (await withSigningSecrets(deps, claimed)).forEach(run);
    return claimed.length === free;
  };

  const loop = async () => {
    while (running) {
      let filled = false;
      try {
        filled = await claimAndStart();
      } catch (error) {
        deps.log.error({ err: error }, "claiming webhook deliveries failed");
      }
      if (running && !filled) await alarm.sleep(pollIntervalMs);
    }
  };
  const listening = options.listen?.(WAKE_CHANNEL, alarm.ring).catch((error: unknown) => {
    deps.log.error({ err: error }, "listening for webhook wake-ups failed: polling only");
    return null;
  });
  const looping = loop();

  return {
    async stop() {
      running = false;
      alarm.ring();
      await looping;
      const unlisten = await listening;
      await Promise.allSettled([...inFlight]);
      await unlisten?.().catch(() => {});
      await ownAgents?.close();
    },
  };
}

/** A sleep that a `ring` ends early; a ring while nobody sleeps ends the next sleep at once (nothing is missed). */
function createAlarm() {
  let wakeUp: (() => void) | null = null;
  let rung = false;
  return {
    ring: () => {
      if (wakeUp) wakeUp();
      else rung = true;
    },
    sleep: (ms: number) =>
      new Promise<void>((resolve) => {
        if (rung) {
          // Through the event loop, not at once: PGlite answers in microtasks, and claims chained that way would
          // keep this process's network I/O (the attempts in flight) waiting.
          rung = false;
          setImmediate(resolve);
          return;
        }
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wakeUp = null;
          resolve();
        }
        wakeUp = done;
      }),
  };
}
