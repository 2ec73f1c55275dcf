"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Pager } from "@/components/ui/pager";
import { QueryView } from "@/components/ui/states";
import { useCursorPages } from "@/components/ui/use-cursor-pages";
import { useTRPC } from "@/lib/trpc/client";
import { PaymentFiltersForm } from "./payment-filters";
import { PaymentsTable } from "./payments-table";
import type { PaymentFilters } from "./types";

const PAGE_SIZE = 25;

function exportHref(filters: PaymentFilters) {
  const params = new URLSearchParams(Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1])));
  const query = params.toString();
  return "/dashboard/payments/export" + (query ? `?${query}` : "");
}

/** The signed-in merchant's payments: filters, a page of the table, cursor paging, CSV of the filtered set. */
export function PaymentsList() {
  const trpc = useTRPC();
  const [filters, setFilters] = useState<PaymentFilters>({});
  const pages = useCursorPages();
  const query = useQuery({
    ...trpc.payments.list.queryOptions({ ...filters, cursor: pages.cursor, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const filtered = Object.values(filters).some(Boolean);

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Payments</h1>
          <p>Newest first. Filters apply to the table and to the CSV export.</p>
        </div>
        <a className="btn" href={exportHref(filters)} download>
          Export CSV{filtered ? " (filtered)" : ""}
        </a>
      </div>
      <PaymentFiltersForm
        initial={filters}
        onApply={(next) => {
          setFilters(next);
          pages.reset();
        }}
      />
      <QueryView
        query={query}
        what="payments"
        empty={filtered ? "No payments match these filters." : "No payments yet. Record one with POST /api/v1/payment/confirm and it appears here."}
      >
        {(page) => (
          <>
            <PaymentsTable payments={page.data} detailHref={(payment) => `/dashboard/payments/${payment.id}`} caption="Payments, newest first" />
            <Pager pages={pages} page={page} busy={query.isFetching} />
          </>
        )}
      </QueryView>
    </>
  );
}
