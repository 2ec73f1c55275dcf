import { attemptDelivery, withSigningSecrets, type DeliveryDeps } from "../../src/server/webhooks/attempt";
import { claimDueDeliveries } from "../../src/server/webhooks/claim";
import { createAgentPool } from "../../src/server/webhooks/http-sender";
import { WORKER_DEFAULTS } from "../../src/server/webhooks/worker";

const NEVER_OPENS = { failureThreshold: 2_000_000_000, cooldownMs: 0 };

/**
 * Claims and attempts everything due now, batch by batch, until nothing is: a worker without its loop, for tests
 * of what attempts do. Its failures open no endpoint breaker unless the test passes one (breaker tests run a worker).
 */
export async function deliverDueNow(baseDeps: DeliveryDeps, options: { leaseMs?: number; concurrency?: number } = {}): Promise<number> {
  const agents = baseDeps.agents ?? createAgentPool();
  const deps: DeliveryDeps = { ...baseDeps, agents, breaker: baseDeps.breaker ?? NEVER_OPENS };
  let total = 0;
  try {
    for (;;) {
      const claimed = await claimDueDeliveries(deps.db, {
        limit: options.concurrency ?? 8,
        leaseMs: options.leaseMs ?? WORKER_DEFAULTS.leaseMs,
        now: deps.now(),
        perEndpoint: WORKER_DEFAULTS.perEndpoint,
      });
      if (claimed.length === 0) return total;
      await Promise.all((await withSigningSecrets(deps, claimed)).map((loaded) => attemptDelivery(deps, loaded)));
      total += claimed.length;
    }
  } finally {
    if (agents !== baseDeps.agents) await agents.close();
  }
}
