import { timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import { webhookDeliveries, webhookEndpointBreakers } from "@/server/db/schema";
import { rowsOf } from "@/server/db/rows";
import type { Executor } from "@/server/db/types";
import type { Runtime } from "@/server/runtime";
import { breakersOpen, poolConnections, poolWaiting, registry, webhookDue, webhookInFlight, webhookOldestDue } from "./registry";

export interface QueueState {
  /** Pending deliveries whose time has come. */
  due: number;
  /** Deliveries claimed by a worker. */
  inFlight: number;
  /** Seconds the oldest due delivery has waited (0 when none). */
  oldestDueSeconds: number;
  /** Endpoints whose breaker is open now. */
  breakersOpen: number;
}

/**
 * The queue's state in one round trip of three counts: the due rows through the claim's partial index on
 * pending rows, the claimed ones through the lease index, the breakers (one row per failing endpoint). Read at
 * scrape time and by the staff System page; never on a request's path.
 */
export async function readQueueState(db: Executor, now: Date): Promise<QueueState> {
  const at = now.toISOString();
  const [row] = rowsOf<{ due: number; oldest: number | null; in_flight: number; open: number }>(
    await db.execute(sql`
      select due.n as due, due.oldest, flight.n as in_flight, open.n as open
      from (select count(*)::int as n, extract(epoch from min(d.next_attempt_at))::float8 as oldest
            from ${webhookDeliveries} d where d.status = 'pending' and d.next_attempt_at <= ${at}::text::timestamptz) due,
           (select count(*)::int as n from ${webhookDeliveries} d where d.status = 'delivering') flight,
           (select count(*)::int as n from ${webhookEndpointBreakers} b where b.open_until > ${at}::text::timestamptz) open`),
  );
  const oldest = row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest);
  return {
    due: Number(row?.due ?? 0),
    inFlight: Number(row?.in_flight ?? 0),
    oldestDueSeconds: oldest === null ? 0 : Math.max(0, now.getTime() / 1000 - oldest),
    breakersOpen: Number(row?.open ?? 0),
  };
}

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
    poolConnections.set({ state: "connecting" }, pool.connecting);
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
