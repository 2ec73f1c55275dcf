"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Pager } from "@/components/ui/pager";
import { QueryView } from "@/components/ui/states";
import { useCursorPages } from "@/components/ui/use-cursor-pages";
import { useTRPC } from "@/lib/trpc/client";
import { CreateInvoiceForm } from "./create-invoice-form";
import { InvoiceFiltersForm, type InvoiceFilters } from "./invoice-filters";
import { InvoicesTable } from "./invoices-table";

const PAGE_SIZE = 25;

/** The signed-in merchant's invoices: create one, filter, page through. */
export function InvoicesList() {
  const trpc = useTRPC();
  const [filters, setFilters] = useState<InvoiceFilters>({});
  const pages = useCursorPages();
  const query = useQuery({
    ...trpc.invoices.list.queryOptions({ ...filters, cursor: pages.cursor, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const filtered = Object.values(filters).some(Boolean);
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Invoices</h1>
          <p>Newest first. Fulfil orders when an invoice is paid (docs/invoices.md).</p>
        </div>
      </div>
      <CreateInvoiceForm />
      <InvoiceFiltersForm
        initial={filters}
        onApply={(next) => {
          setFilters(next);
          pages.reset();
        }}
      />
      <QueryView query={query} what="invoices" empty={
          filtered
            ? "No invoices match these filters: clear them to see every invoice."
            : "No invoices yet. Create one with the form above: you get a checkout link to send to your customer (your server can do the same with POST /api/v1/invoice)."
        }>
        {(page) => (
          <>
            <InvoicesTable invoices={page.data} detailHref={(invoice) => `/dashboard/invoices/${invoice.id}`} caption="Invoices, newest first" />
            <Pager pages={pages} page={page} busy={query.isFetching} />
          </>
        )}
      </QueryView>
    </>
  );
}
