import { timingSafeEqual } from "node:crypto";
import type { Runtime } from "@/server/runtime";
import { readQueueState } from "@/server/services/system/queue-state";
import { breakersOpen, poolConnections, poolWaiting, registry, webhookDue, webhookInFlight, webhookOldestDue } from "@/server/metrics/registry";

/** The Prometheus text of every metric, the queue and pool gauges read now. */
export async function renderMetrics(runtime: Runtime): Promise<string> {
  const queue = await readQueueState(runtime.database.db, runtime.now());
  webhookDue.set(queue.due);
  webhookInFlight.set(queue.inFlight);
  webhookOldestDue.set(queue.oldestDueSeconds);
  breakersOpen.set(queue.breakersOpen);
  const pool = runtime.database.poolStats?.();
  if (pool) {
    poolConnections.set({ state: "in_use" }, pool.inUse);
    poolConnections.set({ state: "idle" }, pool.idle);
    poolConnections.set({ state: "max" }, pool.max);
    poolWaiting.set(pool.waiting);
  }
  return registry.metrics();
}

/**
 * Whether a request carries `Authorization: Bearer <METRICS_TOKEN>`. Compared in constant time over equal-length
 * buffers (a length mismatch is refused first: the token's length is not the secret, its bytes are).
 */
export function hasMetricsToken(request: Request, token: string): boolean {
  const match = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "");
  if (!match) return false;
  const given = Buffer.from(match[1]!, "utf8");
  const expected = Buffer.from(token, "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
