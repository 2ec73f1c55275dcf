"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Suspense } from "react";
import { InvoiceCounts } from "@/components/invoices/invoice-counts";
import { Empty, QueryView } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { DailyChart } from "./daily-chart";
import { Quickstart } from "./quickstart";
import { usePermissions } from "@/components/shell/use-permissions";
import { StatCards, type PaymentsLink } from "./stat-cards";
import { StatsWindowControls, useStatsWindow, type StatsWindow } from "./stats-window";
import type { Stats } from "./types";

export function StatsView({ stats, window, paymentsHref, webhooksHref }: { stats: Stats; window: StatsWindow; paymentsHref?: string; webhooksHref?: string }) {
  const basisLabel = window.basis === "occurred" ? "when the payments happened (occurredAt, else when recorded)" : "when the payments were recorded here";
  // The payments list filters by creation day: with the occurred basis a card's list can differ from its count.
  const paymentsLink: PaymentsLink | undefined = paymentsHref
    ? (filters) => {
        const given = Object.entries({ ...filters, from: stats.from, to: stats.to }).filter((entry): entry is [string, string] => Boolean(entry[1]));
        return `${paymentsHref}?${new URLSearchParams(given)}`;
      }
    : undefined;
  return (
    <>
      <p className="muted">
        {stats.from} to {stats.to} (UTC days), by {basisLabel}.
      </p>
      {stats.payments.total === 0 ? <Empty>No payments in this window. Choose a longer window, or record a payment.</Empty> : null}
      <StatCards stats={stats} paymentsLink={paymentsLink} webhooksHref={webhooksHref} />
      <DailyChart stats={stats} basisLabel={basisLabel} />
    </>
  );
}

/** The signed-in merchant's statistics over a window kept in the URL; a quickstart until the first payment. */
function OverviewContent() {
  const trpc = useTRPC();
  const stats = useStatsWindow();
  const { from, to, basis } = stats.window;
  const query = useQuery({ ...trpc.payments.stats.queryOptions({ from, to, basis }), placeholderData: keepPreviousData });
  // Any payment at all, in any window: a merchant without one sees how to record the first.
  const { mayCall } = usePermissions();
  const anyPayment = useQuery(trpc.payments.list.queryOptions({ limit: 1 }));
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Overview</h1>
          <p>Payments and webhook deliveries over the window you choose.</p>
        </div>
        <StatsWindowControls stats={stats} />
      </div>
      {/* Setting up an integration: for who may make its keys (the quickstart lists them). */}
      {anyPayment.data?.data.length === 0 && mayCall("apiKeys.create") ? <Quickstart /> : null}
      <QueryView query={query} what="statistics">
        {(data) => <StatsView stats={data} window={stats.window} paymentsHref="/dashboard/payments" webhooksHref="/dashboard/webhooks" />}
      </QueryView>
      <InvoiceCounts />
    </>
  );
}

export function Overview() {
  return (
    <Suspense>
      <OverviewContent />
    </Suspense>
  );
}
