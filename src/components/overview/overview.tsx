"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Empty, QueryView } from "@/components/ui/states";
import { InvoiceCounts } from "@/components/invoices/invoice-counts";
import { useTRPC } from "@/lib/trpc/client";
import { DailyChart } from "./daily-chart";
import { StatCards } from "./stat-cards";
import type { Stats } from "./types";

const WINDOWS = [7, 30, 90, 365] as const;

export function statsWindow(days: number, now = new Date()) {
  const to = now.toISOString().slice(0, 10);
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  return { from, to };
}

export function WindowSelect({ days, onChange }: { days: number; onChange: (days: number) => void }) {
  return (
    <div className="field">
      <label htmlFor="stats-window">Window</label>
      <select id="stats-window" value={days} onChange={(event) => onChange(Number(event.target.value))}>
        {WINDOWS.map((value) => (
          <option key={value} value={value}>
            Last {value} days
          </option>
        ))}
      </select>
    </div>
  );
}

export function StatsView({ stats }: { stats: Stats }) {
  return (
    <>
      <p className="muted">
        {stats.from} to {stats.to} (UTC days).
      </p>
      {stats.payments.total === 0 ? (
        <Empty>No payments in this window yet. Record one with POST /api/v1/payment/confirm and it appears here.</Empty>
      ) : null}
      <StatCards stats={stats} />
      <DailyChart stats={stats} />
    </>
  );
}

/** The signed-in merchant's statistics over a chosen window. */
export function Overview() {
  const trpc = useTRPC();
  const [days, setDays] = useState(30);
  const query = useQuery({ ...trpc.payments.stats.queryOptions(statsWindow(days)), placeholderData: keepPreviousData });
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Overview</h1>
          <p>Payments and webhook deliveries over the window you choose.</p>
        </div>
        <WindowSelect days={days} onChange={setDays} />
      </div>
      <QueryView query={query} what="statistics">
        {(stats) => <StatsView stats={stats} />}
      </QueryView>
      <InvoiceCounts />
    </>
  );
}
