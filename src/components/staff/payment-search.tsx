"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { PaymentsTable } from "@/components/payments/payments-table";
import { Empty, QueryView } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";

/** Support staff: find payments of any merchant by payment id, external id or reference (exact). */
export function PaymentSearch() {
  const trpc = useTRPC();
  const [term, setTerm] = useState("");
  const query = useQuery(trpc.payments.staff.search.queryOptions({ query: term }, { enabled: term.length > 0 }));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTerm(String(new FormData(event.currentTarget).get("q") ?? "").trim());
  }

  return (
    <>
      <form className="card form-row" role="search" onSubmit={submit}>
        <div className="field" style={{ flex: "1 1 20rem" }}>
          <label htmlFor="staff-search">Payment id, external id or reference</label>
          <input id="staff-search" name="q" required placeholder="pay_… or the merchant's own id" />
        </div>
        <button type="submit" className="btn btn-primary">
          Search
        </button>
      </form>
      {!term ? (
        <Empty>Enter an exact payment id, external id or reference. Every search is written to the audit log.</Empty>
      ) : (
        <QueryView query={query} what="results" empty={<>No payment of any merchant matches “{term}”.</>}>
          {(page) => (
            <PaymentsTable
              payments={page.data}
              showMerchant
              detailHref={(payment) => `/dashboard/staff/payments/${payment.id}`}
              caption={`Payments matching ${term}`}
            />
          )}
        </QueryView>
      )}
    </>
  );
}
