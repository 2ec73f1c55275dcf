"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Suspense } from "react";
import { StatsView } from "@/components/overview/overview";
import { StatsWindowControls, useStatsWindow } from "@/components/overview/stats-window";
import { PaymentsTable } from "@/components/payments/payments-table";
import { formatDateTime } from "@/components/ui/format";
import { LongValue } from "@/components/ui/long-value";
import { Pager } from "@/components/ui/pager";
import { ErrorMessage, Loading, QueryView } from "@/components/ui/states";
import { useCursorPages } from "@/components/ui/use-cursor-pages";
import { useTRPC } from "@/lib/trpc/client";
import { StaffFailedDeliveries } from "./staff-failed-deliveries";
import { StaffInvoices } from "./staff-invoices";
import { ViewAsForm } from "./view-as-form";
import { statusLabel } from "@/lib/statuses";

/** One merchant for support staff: profile, statistics, payments, invoices (mark paid / void), failed deliveries. */
export function MerchantView({ merchantId }: { merchantId: string }) {
  return (
    <Suspense>
      <MerchantViewContent merchantId={merchantId} />
    </Suspense>
  );
}

function MerchantViewContent({ merchantId }: { merchantId: string }) {
  const trpc = useTRPC();
  const statsWindow = useStatsWindow();
  const pages = useCursorPages();
  const profile = useQuery(trpc.staff.merchant.queryOptions({ merchantId }, { retry: false }));
  const stats = useQuery({
    ...trpc.payments.staff.stats.queryOptions({ merchantId, from: statsWindow.window.from, to: statsWindow.window.to, basis: statsWindow.window.basis }, { enabled: profile.isSuccess }),
    placeholderData: keepPreviousData,
  });
  // The same query as the failed deliveries' section below (shared cache): a warning at the top when there are some.
  const failedDeliveries = useQuery(trpc.staff.failedDeliveries.queryOptions({ merchantId, limit: 50 }, { enabled: profile.isSuccess }));
  const payments = useQuery({
    ...trpc.payments.staff.list.queryOptions({ merchantId, cursor: pages.cursor, limit: 20 }, { enabled: profile.isSuccess }),
    placeholderData: keepPreviousData,
  });

  if (profile.isPending) return <Loading what="the merchant" retry={profile.refetch} />;
  if (profile.isError) return <ErrorMessage error={profile.error} what="the merchant" retry={profile.refetch} />;
  const merchant = profile.data;
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{merchant.name}</h1>
          <p>
            <LongValue value={merchant.id} what="merchant id" code width={32} /> · read-only · <Link href={`/dashboard/staff/audit?merchantId=${merchant.id}`}>audit log</Link> ·{" "}
            <Link href={`/dashboard/staff/merchants/${merchant.id}/reconciliation`}>reconciliation</Link>
          </p>
        </div>
        <StatsWindowControls stats={statsWindow} />
      </div>
      {failedDeliveries.data?.data.length ? (
        <p className="alert alert-warning" role="status">
          {failedCount(failedDeliveries.data)} failed: <a href="#staff-failed-heading">see and retry them</a>.
        </p>
      ) : null}
      <section className="card" aria-labelledby="profile-heading">
        <h2 id="profile-heading">Profile</h2>
        <dl className="details">
          <dt>Email</dt>
          <dd>
            <LongValue value={merchant.email} what="email" width={48} />
          </dd>
          <dt>Status</dt>
          <dd>{statusLabel("merchant", merchant.status)}</dd>
          <dt>Website</dt>
          <dd>{merchant.website ?? "—"}</dd>
          <dt>Webhook URL</dt>
          <dd>{merchant.webhookUrl ?? "none"}</dd>
          <dt>Subscribed events</dt>
          <dd>{merchant.webhookEvents.join(", ") || "none"}</dd>
          <dt>Created</dt>
          <dd>{formatDateTime(merchant.createdAt)}</dd>
        </dl>
      </section>
      <ViewAsForm merchantId={merchant.id} merchantName={merchant.name} />
      <QueryView query={stats} what="statistics">
        {(data) => <StatsView stats={data} window={statsWindow.window} />}
      </QueryView>
      <section className="card" aria-labelledby="merchant-payments-heading">
        <h2 id="merchant-payments-heading">Payments</h2>
        <QueryView query={payments} what="payments" empty="This merchant has no payments.">
          {(page) => (
            <>
              <PaymentsTable
                payments={page.data}
                detailHref={(payment) => `/dashboard/staff/payments/${payment.id}`}
                caption={`Payments of ${merchant.name}`}
              />
              <Pager pages={pages} page={page} busy={payments.isFetching} />
            </>
          )}
        </QueryView>
      </section>
      <StaffInvoices merchantId={merchant.id} />
      <StaffFailedDeliveries merchantId={merchant.id} />
    </>
  );
}

function failedCount(page: { data: unknown[]; hasMore: boolean }) {
  if (page.hasMore) return `More than ${page.data.length} webhook deliveries have`;
  return page.data.length === 1 ? "1 webhook delivery has" : `${page.data.length} webhook deliveries have`;
}
