"use client";

import { useQuery } from "@tanstack/react-query";
import { Suspense, type FormEvent } from "react";
import { PaymentsTable } from "@/components/payments/payments-table";
import { Empty, QueryView } from "@/components/ui/states";
import { useUrlParams } from "@/components/ui/use-url-params";
import { useTRPC } from "@/lib/trpc/client";
import { MerchantName, useStaffNames } from "./staff-names";

/**
 * Support staff: find payments of any merchant by a payment id, an external id or a reference, or the start
 * or any part of one. The term is in the URL (`?q=`), so reload and Back keep the results.
 */
function PaymentSearchContent() {
  const trpc = useTRPC();
  const { params, update } = useUrlParams();
  const term = (params.get("q") ?? "").trim();
  const query = useQuery(trpc.payments.staff.search.queryOptions({ query: term }, { enabled: term.length > 0, refetchOnWindowFocus: false }));
  const names = useStaffNames({ merchantIds: query.data?.data.map((payment) => payment.merchantId) });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    update({ q: String(new FormData(event.currentTarget).get("q") ?? "").trim() });
  }

  return (
    <>
      <form className="card form-row" role="search" onSubmit={submit} key={term}>
        <div className="field" style={{ flex: "1 1 16rem" }}>
          <label htmlFor="staff-search">Payment id, external id or reference</label>
          <input id="staff-search" name="q" required defaultValue={term} placeholder="pay_…, order-1029, or any part of one" />
        </div>
        <button type="submit" className="btn btn-primary">
          Search
        </button>
      </form>
      {!term ? (
        <Empty>Enter a payment id, external id or reference, or part of one (at least 3 characters to match inside). Every search is written to the audit log.</Empty>
      ) : (
        <QueryView query={query} what="results" empty={<>No payment of any merchant matches “{term}”.</>}>
          {(page) => (
            <>
              <p className="muted" role="status">
                {page.data.length} payment{page.data.length === 1 ? "" : "s"} found{page.data.length >= 50 ? " (the newest 50; narrow the term to see others)" : ""}.
              </p>
              <PaymentsTable
                payments={page.data}
                merchant={(merchantId) => <MerchantName id={merchantId} names={names} />}
                detailHref={(payment) => `/dashboard/staff/payments/${payment.id}`}
                caption={`Payments matching ${term}`}
              />
            </>
          )}
        </QueryView>
      )}
    </>
  );
}

export function PaymentSearch() {
  return (
    <Suspense>
      <PaymentSearchContent />
    </Suspense>
  );
}
