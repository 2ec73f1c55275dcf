import type { Runtime } from "@/server/runtime";
import { PRUNE_BATCH, pruneExpiredEvents } from "@/server/services/events/prune";

/** Often enough that a day's events go in a day's worth of short batches; nothing to do costs one index probe. */
export const PRUNE_INTERVAL_MS = 60_000;
/** A pause between full batches, so pruning a large backlog never holds the database for long. */
const BETWEEN_BATCHES_MS = 50;

/**
 * Prunes events past `WEBHOOK_EVENT_RETENTION_DAYS` in small batches (services/events/prune.ts) until the
 * runtime closes. Runs where the webhook worker runs (web processes with the inline worker, `npm run worker`).
 */
export function startEventPruner(runtime: Runtime, options: { intervalMs?: number } = {}): { stop(): Promise<void> } {
  const log = runtime.log.child({ component: "event-retention" });
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();

  const prune = async () => {
    while (running) {
      const count = await pruneExpiredEvents(runtime.database.db, { now: runtime.now(), retentionDays: runtime.env.WEBHOOK_EVENT_RETENTION_DAYS });
      if (count > 0) log.info({ count }, "expired events pruned");
      if (count < PRUNE_BATCH) return;
      await new Promise((resolve) => setTimeout(resolve, BETWEEN_BATCHES_MS));
    }
  };
  const tick = () => {
    current = prune()
      .catch((error: unknown) => log.error({ err: error }, "event pruning failed; retrying at the next tick"))
      .finally(() => {
        if (running) timer = setTimeout(tick, options.intervalMs ?? PRUNE_INTERVAL_MS);
      });
  };
  tick();
  const pruner = {
    async stop() {
      running = false;
      clearTimeout(timer);
      await current;
    },
  };
  runtime.onClose(() => pruner.stop());
  return pruner;
}
