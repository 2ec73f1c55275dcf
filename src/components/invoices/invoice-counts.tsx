"use client";

import { useQuery } from "@tanstack/react-query";
import { QueryView } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";

function percent(share: number | null) {
  return share === null ? "—" : `${(share * 100).toFixed(1)} %`;
}

/** The overview's invoice figures: counts by status (as readers see it) and the share of finished ones paid. */
export function InvoiceCounts() {
  const trpc = useTRPC();
  const stats = useQuery(trpc.invoices.stats.queryOptions());
  return (
    <section className="card" aria-labelledby="invoice-counts-heading">
      <h2 id="invoice-counts-heading">Invoices</h2>
      <QueryView query={stats} what="invoice counts">
        {(counts) => (
          <dl className="stat-grid">
            <div className="stat">
              <dt>Open</dt>
              <dd>{counts.open + counts.processing}</dd>
            </div>
            <div className="stat">
              <dt>Paid</dt>
              <dd>{counts.paid}</dd>
            </div>
            <div className="stat">
              <dt>Expired</dt>
              <dd>{counts.expired}</dd>
            </div>
            <div className="stat">
              <dt>Paid share</dt>
              <dd>
                {percent(counts.paidShare)}
                <small>paid / (paid + expired) · {counts.void} void</small>
              </dd>
            </div>
          </dl>
        )}
      </QueryView>
    </section>
  );
}
