"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Suspense } from "react";
import { Pager } from "@/components/ui/pager";
import { QueryView } from "@/components/ui/states";
import { useCursorPages } from "@/components/ui/use-cursor-pages";
import { useUrlFilters } from "@/components/ui/use-url-params";
import { useTRPC } from "@/lib/trpc/client";
import { PaymentFiltersForm, toListFilters } from "./payment-filters";
import { PaymentsTable } from "./payments-table";
import type { PaymentFilters } from "./types";

const PAGE_SIZE = 25;
const URL_FILTERS = ["q", "status", "currency", "reconciled", "from", "to"] as const;

function exportHref(filters: PaymentFilters) {
  const params = new URLSearchParams(Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1])));
  const query = params.toString();
  return "/dashboard/payments/export" + (query ? `?${query}` : "");
}

/** One page of results under the filters; keyed by them, so new filters start again at page 1. */
function Results({ filters, filtered }: { filters: PaymentFilters; filtered: boolean }) {
  const trpc = useTRPC();
  const pages = useCursorPages();
  const query = useQuery({ ...trpc.payments.list.queryOptions({ ...filters, cursor: pages.cursor, limit: PAGE_SIZE }), placeholderData: keepPreviousData });
  const count = useQuery(trpc.payments.count.queryOptions(filters));
  return (
    <QueryView
      query={query}
      what="payments"
      empty={
        filtered ? (
          <>
            No payments match these filters. <Link href="/dashboard/payments">Show all payments</Link>.
          </>
        ) : (
          <>
            No payments yet. Record one from your server with <code>POST /api/v1/payment/confirm</code> — the{" "}
            <Link href="/dashboard">overview</Link> has a ready curl command — and it appears here.
          </>
        )
      }
    >
      {(page) => (
        <>
          <p className="muted" role="status">
            {count.data ? `${count.data.count.toLocaleString("en-US")}${count.data.capped ? "+" : ""} payment${count.data.count === 1 ? "" : "s"}${filtered ? " match" : ""}.` : " "}
          </p>
          <PaymentsTable payments={page.data} detailHref={(payment) => `/dashboard/payments/${payment.id}`} caption="Payments, newest first" />
          <Pager pages={pages} page={page} busy={query.isFetching} />
        </>
      )}
    </QueryView>
  );
}

/** The signed-in merchant's payments: search and filters kept in the URL, a page of the table, CSV of the filtered set. */
function PaymentsListContent() {
  const { current, filters, filtered, key, apply } = useUrlFilters(URL_FILTERS, toListFilters);

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Payments</h1>
          <p>
            Newest first. Filters apply to the table and to the CSV export. <strong>Reconciled</strong>: checked against your bank statement or
            the chain, with a note — open a payment to mark it.
          </p>
        </div>
        <a className="btn" href={exportHref(filters)} download>
          Export CSV{filtered ? " (filtered)" : ""}
        </a>
      </div>
      <PaymentFiltersForm key={key} current={current} onApply={apply} />
      <Results key={key} filters={filters} filtered={filtered} />
    </>
  );
}

export function PaymentsList() {
  return (
    <Suspense>
      <PaymentsListContent />
    </Suspense>
  );
}
