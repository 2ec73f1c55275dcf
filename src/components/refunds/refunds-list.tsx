"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Suspense } from "react";
import { Pager } from "@/components/ui/pager";
import { QueryView } from "@/components/ui/states";
import { useCursorPages } from "@/components/ui/use-cursor-pages";
import { useUrlFilters } from "@/components/ui/use-url-params";
import { useTRPC } from "@/lib/trpc/client";
import { RefundsTable } from "./refunds-table";
import { StatusOptions } from "@/components/ui/badge";
import { DayRangeFields, FilterForm } from "@/components/ui/filter-form";
import { createdRangeOfDays } from "@/lib/day-range";
import { statusValues } from "@/lib/statuses";
import type { RefundFilters, RefundStatus } from "./types";

const PAGE_SIZE = 25;
const URL_FILTERS = ["status", "paymentId", "invoiceId", "from", "to"] as const;
type UrlFilters = Partial<Record<(typeof URL_FILTERS)[number], string>>;
function toListFilters(url: UrlFilters): RefundFilters {
  const status = statusValues("refund").find((value): value is RefundStatus => value === url.status);
  return { status, paymentId: url.paymentId?.trim() || undefined, invoiceId: url.invoiceId?.trim() || undefined, ...createdRangeOfDays(url.from, url.to) };
}

function exportHref(filters: RefundFilters) {
  const query = new URLSearchParams(Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1]))).toString();
  return "/dashboard/refunds/export" + (query ? `?${query}` : "");
}

function Filters({ current, onApply }: { current: UrlFilters; onApply: (filters: UrlFilters) => void }) {
  return (
    <FilterForm label="Filter refunds" names={URL_FILTERS} onApply={onApply}>
      <div className="field">
        <label htmlFor="refund-filter-status">Status</label>
        <select id="refund-filter-status" name="status" defaultValue={current.status ?? ""}>
          <option value="">Any</option>
          <StatusOptions kind="refund" />
        </select>
      </div>
      <div className="field">
        <label htmlFor="refund-filter-payment">Payment id</label>
        <input id="refund-filter-payment" name="paymentId" defaultValue={current.paymentId} placeholder="pay_…" />
      </div>
      <div className="field">
        <label htmlFor="refund-filter-invoice">Invoice id</label>
        <input id="refund-filter-invoice" name="invoiceId" defaultValue={current.invoiceId} placeholder="inv_…" />
      </div>
      <DayRangeFields idPrefix="refund-filter" from={current.from} to={current.to} />
    </FilterForm>
  );
}

function Results({ filters, filtered }: { filters: RefundFilters; filtered: boolean }) {
  const trpc = useTRPC();
  const pages = useCursorPages();
  const query = useQuery({ ...trpc.refunds.list.queryOptions({ ...filters, cursor: pages.cursor, limit: PAGE_SIZE }), placeholderData: keepPreviousData });
  return (
    <QueryView
      query={query}
      what="refunds"
      empty={
        filtered ? (
          <>
            No refunds match these filters. <Link href="/dashboard/refunds">Show all refunds</Link>.
          </>
        ) : (
          <>
            No refunds yet. Open a confirmed payment and choose <strong>Refund…</strong>, or call <code>POST /api/v1/refund</code>.
          </>
        )
      }
    >
      {(page) => (
        <>
          <RefundsTable refunds={page.data} caption="Refunds, newest first" />
          <Pager pages={pages} page={page} busy={query.isFetching} />
        </>
      )}
    </QueryView>
  );
}

function RefundsListContent() {
  const { current, filters, filtered, key, apply } = useUrlFilters(URL_FILTERS, toListFilters);
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Refunds</h1>
          <p>Money given back on your payments, newest first. Filters apply to the table and to the CSV export.</p>
        </div>
        <a className="btn" href={exportHref(filters)} download>
          Export CSV{filtered ? " (filtered)" : ""}
        </a>
      </div>
      <Filters key={key} current={current} onApply={apply} />
      <Results key={key} filters={filters} filtered={filtered} />
    </>
  );
}

/** The signed-in merchant's refunds: filters in the URL, cursor pages, CSV of the filtered set. */
export function RefundsList() {
  return (
    <Suspense>
      <RefundsListContent />
    </Suspense>
  );
}
