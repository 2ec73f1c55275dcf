import { and, count, eq, gte, lt, sql } from "drizzle-orm";
import { addDecimals, subtractDecimals } from "@/lib/money";
import { payments, refunds, webhookDeliveries } from "@/server/db/schema";
import { recordStaffRead } from "../audit/record-staff-read";
import { requireMerchantScope, type ServiceContext } from "../context";
import { NotFoundError, ValidationError } from "../errors";
import { validateInput } from "../validate";
import { DEFAULT_STATS_DAYS, MAX_STATS_DAYS, paymentStatsInput, type PaymentStats, type PaymentStatsInput } from "./schemas";

const DAY_MS = 86_400_000;

/**
 * Statistics for one merchant in the caller's mode (test data never counts in live statistics, docs/test-mode.md)
 * over a window of UTC days, `from`..`to` inclusive (default the last 30 days,
 * at most 366). Every figure covers the window, by creation time or (`basis: "occurred"`) by when the
 * payment happened (`occurredAt`, else creation), so the totals equal the sum of the daily series. Amounts are summed per currency by the database (numeric) and across days as exact decimals
 * (BigInt): never a float, never across currencies.
 *
 * Two grouped queries over the (merchant_id, created_at | coalesce(occurred_at, created_at), …) indexes,
 * whatever the window's size.
 */
export async function getPaymentStats({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: PaymentStatsInput & { merchantId?: string };
}): Promise<PaymentStats> {
  const { merchantId, livemode } = requireMerchantScope(ctx);
  // A path id naming another merchant answers like an unknown one.
  if (input.merchantId !== undefined && input.merchantId !== merchantId) throw new NotFoundError("merchant");
  const query = validateInput(paymentStatsInput, { from: input.from, to: input.to, basis: input.basis }, "query");
  const { from, to, days, start, end } = statsWindow(query, ctx.now());
  await recordStaffRead({ ctx, input: { view: "paymentStats" } });

  // Group on date_trunc (cheap per row) and format only the grouped value (once per group).
  // The occurred basis is written exactly as payments_merchant_occurred_stats_idx's expression, so that index serves it.
  const time = query.basis === "occurred" ? sql`coalesce(${payments.occurredAt}, ${payments.createdAt})` : sql`${payments.createdAt}`;
  const dayStart = sql`date_trunc('day', ${time}, 'UTC')`;
  const day = sql<string>`to_char(${dayStart} at time zone 'UTC', 'YYYY-MM-DD')`;
  const groups = await ctx.reader
    .select({
      day,
      status: payments.status,
      currency: payments.currency,
      count: sql<number>`count(*)::int`,
      amount: sql<string>`sum(${payments.amount})::text`,
    })
    .from(payments)
    .where(and(eq(payments.merchantId, merchantId), eq(payments.livemode, livemode), sql`${time} >= ${start.toISOString()}::timestamptz`, sql`${time} < ${end.toISOString()}::timestamptz`))
    .groupBy(dayStart, payments.status, payments.currency);

  // Refunds count on the day they succeeded (the money left then), whatever the payment's day.
  const refunded = await ctx.reader
    .select({ currency: refunds.currency, count: sql<number>`count(*)::int`, amount: sql<string>`sum(${refunds.amount})::text` })
    .from(refunds)
    .where(
      and(
        eq(refunds.merchantId, merchantId),
        eq(refunds.livemode, livemode),
        eq(refunds.status, "succeeded"),
        gte(refunds.succeededAt, start),
        lt(refunds.succeededAt, end),
      ),
    )
    .groupBy(refunds.currency);

  const deliveries = await ctx.reader
    .select({ status: webhookDeliveries.status, count: count() })
    .from(webhookDeliveries)
    .where(
      and(eq(webhookDeliveries.merchantId, merchantId), eq(webhookDeliveries.livemode, livemode), gte(webhookDeliveries.createdAt, start), lt(webhookDeliveries.createdAt, end)),
    )
    .groupBy(webhookDeliveries.status);

  const totals = { total: 0, pending: 0, confirmed: 0, failed: 0 };
  const volume = new Map<string, { amounts: string[]; count: number }>();
  const daily = new Map(days.map((date) => [date, { count: 0, volume: new Map<string, string[]>() }]));
  for (const group of groups) {
    totals.total += group.count;
    totals[group.status] += group.count;
    const bucket = daily.get(group.day);
    if (bucket) bucket.count += group.count;
    if (group.status !== "confirmed") continue;
    const perCurrency = volume.get(group.currency) ?? { amounts: [], count: 0 };
    perCurrency.amounts.push(group.amount);
    perCurrency.count += group.count;
    volume.set(group.currency, perCurrency);
    bucket?.volume.set(group.currency, [...(bucket.volume.get(group.currency) ?? []), group.amount]);
  }

  const volumeList = [...volume.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, { amounts, count }]) => ({ currency, amount: addDecimals(...amounts), count }));
  const refundList = refunded.map(({ currency, count, amount }) => ({ currency, amount, count })).sort((a, b) => a.currency.localeCompare(b.currency));
  const currencies = [...new Set([...volumeList, ...refundList].map((entry) => entry.currency))].sort();
  const netVolume = currencies.map((currency) => ({
    currency,
    amount: subtractDecimals(volumeList.find((entry) => entry.currency === currency)?.amount ?? "0", refundList.find((entry) => entry.currency === currency)?.amount ?? "0"),
  }));

  const byStatus = Object.fromEntries(deliveries.map((row) => [row.status, row.count]));
  const delivered = byStatus.delivered ?? 0;
  const failed = byStatus.failed ?? 0;
  return {
    merchantId,
    from,
    to,
    payments: totals,
    volume: volumeList,
    refunds: refundList,
    netVolume,
    daily: [...daily.entries()].map(([date, bucket]) => ({
      date,
      count: bucket.count,
      volume: [...bucket.volume.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([currency, amounts]) => ({ currency, amount: addDecimals(...amounts) })),
    })),
    webhooks: {
      delivered,
      // A delivery being attempted right now is still pending from the merchant's point of view.
      pending: (byStatus.pending ?? 0) + (byStatus.delivering ?? 0),
      failed,
      successRate: delivered + failed === 0 ? null : delivered / (delivered + failed),
    },
  };
}

/** Resolves the defaults and checks the bounds; `end` is the midnight after `to`. */
function statsWindow(query: { from?: string; to?: string }, now: Date) {
  const today = now.toISOString().slice(0, 10);
  const to = query.to ?? today;
  const toMs = Date.parse(`${to}T00:00:00Z`);
  const from = query.from ?? new Date(toMs - (DEFAULT_STATS_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  const fromMs = Date.parse(`${from}T00:00:00Z`);
  if (Number.isNaN(fromMs) || Number.isNaN(toMs)) throw new ValidationError([{ path: "query", message: "from/to must be real dates" }]);
  if (fromMs > toMs) throw new ValidationError([{ path: "query.from", message: "must not be after `to`" }]);
  const dayCount = (toMs - fromMs) / DAY_MS + 1;
  if (dayCount > MAX_STATS_DAYS) {
    throw new ValidationError([{ path: "query.from", message: `the window may span at most ${MAX_STATS_DAYS} days` }]);
  }
  const days = Array.from({ length: dayCount }, (_, i) => new Date(fromMs + i * DAY_MS).toISOString().slice(0, 10));
  return { from, to, days, start: new Date(fromMs), end: new Date(toMs + DAY_MS) };
}
