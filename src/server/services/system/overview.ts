import { desc, eq, gt, sql } from "drizzle-orm";
import { merchants, webhookEndpointBreakers, webhookEndpoints } from "@/server/db/schema";
import { selectAttemptsByMinute, selectDepthChanges, selectSlowestEndpoints } from "@/server/db/sql/delivery-history";
import type { PoolStats } from "@/server/db/types";
import { recordStaffRead } from "../audit/record-staff-read";
import { requireStaff, type ServiceContext } from "../context";
import { readQueueState, type QueueState } from "./queue-state";

/** The window the System page shows, in minutes. */
export const WINDOW_MINUTES = 60;
const MINUTE_MS = 60_000;
/** The troubled endpoints the page lists; the rest are in the metrics (docs/operations.md). */
const TROUBLED_SHOWN = 50;

export interface MinutePoint {
  /** The minute's end (ISO): the queue depth is the depth at that instant. */
  at: string;
  /** Deliveries due and not yet sent at `at`. */
  due: number;
  /** Attempts sent during the minute, by outcome: `ok` or the attempt's error class. */
  attempts: Record<string, number>;
  /** Due → sent of the minute's attempts, p99 and max, in ms (null without attempts). */
  lagP99Ms: number | null;
  lagMaxMs: number | null;
}

export interface SystemOverview {
  generatedAt: string;
  queue: QueueState;
  minutes: MinutePoint[];
  /** Endpoints whose breaker counts failures (open now, half-open: a probe is let through, or failing), the most recently failing first. */
  troubledEndpoints: { merchantId: string; merchantName: string; url: string; state: "open" | "half_open" | "failing"; consecutiveFailures: number; openUntil: string | null }[];
  /** Endpoints that are disabled — by the service (failing too long, 410 Gone) or by their merchant — newest first. */
  disabledEndpoints: { merchantId: string; merchantName: string; url: string; reason: "manual" | "failing" | "gone" | null; since: string }[];
  /** The endpoints with the slowest answers over the window (p95 latency), test sends left out. */
  slowestEndpoints: { merchantId: string; merchantName: string; url: string; attempts: number; failures: number; p95Ms: number; avgMs: number }[];
  /** This process's connection pool; null on the embedded database (one in-process instance, no pool). */
  pool: PoolStats | null;
}

/**
 * What support staff see of the delivery engine (the staff System page): the queue now and over the last hour,
 * attempts a minute by outcome, troubled and slow endpoints with their merchants, and the pool of the process
 * that answered. The hour is derived from the attempts (indexed by `sent_at`) and the deliveries still waiting,
 * so every process shows the same history and nothing samples in the background (docs/operations.md).
 */
export async function systemOverview({ ctx, pool }: { ctx: ServiceContext; pool: PoolStats | null }): Promise<SystemOverview> {
  requireStaff(ctx);
  // It names merchants and their endpoints: audited like any staff read (one row per 15 minutes of refreshes).
  await recordStaffRead({ ctx, input: { view: "system" } });
  const now = ctx.now();
  const start = new Date(now.getTime() - WINDOW_MINUTES * MINUTE_MS);
  const [queue, depth, perMinute, troubled, disabled, slowest] = await Promise.all([
    readQueueState(ctx.db, now),
    depthByMinute(ctx, start, now),
    attemptsByMinute(ctx, start, now),
    troubledEndpoints(ctx, now),
    disabledEndpoints(ctx),
    slowestEndpoints(ctx, start, now),
  ]);
  const minutes: MinutePoint[] = [];
  let due = 0;
  for (let k = 1; k <= WINDOW_MINUTES; k++) {
    // Depth at the minute's end: every wait that began by then, less every one that ended.
    due += (depth.get(k) ?? 0) + (k === 1 ? (depth.get(0) ?? 0) : 0);
    const stats = perMinute.get(k - 1);
    minutes.push({
      at: new Date(start.getTime() + k * MINUTE_MS).toISOString(),
      due,
      attempts: stats?.attempts ?? {},
      lagP99Ms: stats?.lagP99Ms ?? null,
      lagMaxMs: stats?.lagMaxMs ?? null,
    });
  }
  return { generatedAt: now.toISOString(), queue, minutes, troubledEndpoints: troubled, disabledEndpoints: disabled, slowestEndpoints: slowest, pool };
}

/** The change in queue depth at each minute mark k (db/sql/delivery-history.ts). */
async function depthByMinute(ctx: ServiceContext, start: Date, now: Date): Promise<Map<number, number>> {
  const rows = await selectDepthChanges(ctx.db, { start, now });
  return new Map(rows.map((row) => [Number(row.k), Number(row.n)]));
}

/** Attempts sent in each minute k (0 … 59) by outcome, and that minute's due → sent lag (grouping sets). */
async function attemptsByMinute(ctx: ServiceContext, start: Date, now: Date) {
  const rows = await selectAttemptsByMinute(ctx.db, { start, now });
  const byMinute = new Map<number, { attempts: Record<string, number>; lagP99Ms: number | null; lagMaxMs: number | null }>();
  for (const row of rows) {
    const k = Number(row.k);
    const entry = byMinute.get(k) ?? { attempts: {}, lagP99Ms: null, lagMaxMs: null };
    // The row without an outcome is the minute's total: its lag covers every attempt of the minute.
    if (row.outcome === null) Object.assign(entry, { lagP99Ms: roundMs(row.lag_p99), lagMaxMs: roundMs(row.lag_max) });
    else entry.attempts[row.outcome] = Number(row.n);
    byMinute.set(k, entry);
  }
  return byMinute;
}

async function troubledEndpoints(ctx: ServiceContext, now: Date): Promise<SystemOverview["troubledEndpoints"]> {
  const rows = await ctx.db
    .select({
      merchantId: webhookEndpoints.merchantId,
      merchantName: merchants.name,
      // The default endpoint has no URL while the profile has none; its breaker row outlives that.
      url: sql<string>`coalesce(${webhookEndpoints.url}, '')`,
      consecutiveFailures: webhookEndpointBreakers.consecutiveFailures,
      openUntil: webhookEndpointBreakers.openUntil,
    })
    .from(webhookEndpointBreakers)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookEndpointBreakers.endpointId))
    .innerJoin(merchants, eq(merchants.id, webhookEndpoints.merchantId))
    .where(gt(webhookEndpointBreakers.consecutiveFailures, 0))
    // Most recently failing first: an endpoint that just started failing is the one a merchant calls about, and
    // ranking by failures in a row hid it behind 50 long-dead endpoints (its count starts at 1).
    .orderBy(desc(webhookEndpointBreakers.updatedAt), webhookEndpoints.url)
    .limit(TROUBLED_SHOWN);
  return rows.map((row) => ({
    ...row,
    state: row.openUntil === null ? "failing" : row.openUntil > now ? "open" : "half_open",
    openUntil: row.openUntil?.toISOString() ?? null,
  }));
}

async function disabledEndpoints(ctx: ServiceContext): Promise<SystemOverview["disabledEndpoints"]> {
  const rows = await ctx.db
    .select({
      merchantId: webhookEndpoints.merchantId,
      merchantName: merchants.name,
      url: sql<string>`coalesce(${webhookEndpoints.url}, '')`,
      reason: webhookEndpoints.disabledReason,
      since: webhookEndpoints.updatedAt,
    })
    .from(webhookEndpoints)
    .innerJoin(merchants, eq(merchants.id, webhookEndpoints.merchantId))
    .where(eq(webhookEndpoints.status, "disabled"))
    .orderBy(desc(webhookEndpoints.updatedAt))
    .limit(50);
  return rows.map((row) => ({ ...row, since: row.since.toISOString() }));
}

async function slowestEndpoints(ctx: ServiceContext, start: Date, now: Date): Promise<SystemOverview["slowestEndpoints"]> {
  const rows = await selectSlowestEndpoints(ctx.db, { start, now });
  return rows.map((row) => ({
    merchantId: row.merchant_id,
    merchantName: row.merchant_name,
    url: row.url,
    attempts: Number(row.attempts),
    failures: Number(row.failures),
    p95Ms: Math.round(Number(row.p95)),
    avgMs: Math.round(Number(row.avg)),
  }));
}

function roundMs(value: number | null): number | null {
  return value === null ? null : Math.round(Number(value) * 10) / 10;
}
