import { newId } from "@/lib/ids";
import type { Runtime } from "@/server/runtime";
import { createServiceContext } from "@/server/services/create-context";
import { EXPIRE_BATCH, expireDueInvoices } from "@/server/services/invoices/expire-due";

/** Often enough that an invoice expires within 5 s of `expiresAt` (docs/invoices.md), cheap when nothing is due (a partial index). */
export const SWEEP_INTERVAL_MS = 1_000;

export interface ExpirySweeper {
  /** Finishes the sweep in progress, then resolves. */
  stop(): Promise<void>;
}

/**
 * Runs the invoice expiry sweep every `intervalMs` (straight again while batches come back full) until the
 * runtime closes. Any number run at once, in web processes and `npm run worker` processes alike.
 */
export function startExpirySweeper(runtime: Runtime, options: { intervalMs?: number } = {}): ExpirySweeper {
  const intervalMs = options.intervalMs ?? SWEEP_INTERVAL_MS;
  const log = runtime.log.child({ component: "invoice-expiry" });
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();

  const sweep = async () => {
    for (;;) {
      const ctx = createServiceContext(runtime, { type: "system" }, newId("request"));
      const count = await expireDueInvoices({ ctx, input: { limit: EXPIRE_BATCH } });
      if (count > 0) log.info({ count }, "invoices expired");
      if (count < EXPIRE_BATCH || !running) return;
    }
  };
  const tick = () => {
    current = sweep()
      .catch((error: unknown) => log.error({ err: error }, "invoice expiry sweep failed; retrying at the next tick"))
      .finally(() => {
        if (running) timer = setTimeout(tick, intervalMs);
      });
  };
  tick();

  const sweeper: ExpirySweeper = {
    async stop() {
      running = false;
      clearTimeout(timer);
      await current;
    },
  };
  runtime.onClose(() => sweeper.stop());
  return sweeper;
}
