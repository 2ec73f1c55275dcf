"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Pager } from "@/components/ui/pager";
import { QueryView } from "@/components/ui/states";
import { useCursorPages } from "@/components/ui/use-cursor-pages";
import { useTRPC } from "@/lib/trpc/client";
import { RetryFeedback } from "./retry-feedback";
import { DeliveriesTable } from "./deliveries-table";
import { RetryAll } from "./retry-all";

/** The merchant's failed deliveries, newest first: retry one, or all of them after seeing how many. */
export function FailedDeliveries() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const pages = useCursorPages();
  const [notice, setNotice] = useState<string | null>(null);
  const query = useQuery({ ...trpc.webhooks.failed.queryOptions({ cursor: pages.cursor, limit: 20 }), placeholderData: keepPreviousData });
  const retry = useMutation(
    trpc.webhooks.retry.mutationOptions({
      onSuccess: async (delivery) => {
        setNotice(`Delivery ${delivery.id} is queued for another attempt now.`);
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
      },
    }),
  );

  return (
    <section className="card" aria-labelledby="failed-heading">
      <div className="page-header" style={{ marginBottom: "0.75rem" }}>
        <h2 id="failed-heading">Failed deliveries</h2>
        {/* Nothing to retry, nothing to offer: the button appears with the first failed delivery. */}
        {query.data?.data.length ? <RetryAll onDone={(count) => setNotice(`${count} failed deliveries are queued for another attempt.`)} /> : null}
      </div>
      <RetryFeedback notice={notice} error={retry.error} />
      <QueryView query={query} what="failed deliveries" empty="No failed deliveries. Deliveries that exhaust their retries appear here.">
        {(page) => (
          <>
            <DeliveriesTable
              deliveries={page.data}
              detailHref={(id) => `/dashboard/webhooks/deliveries/${id}`}
              onRetry={(id) => retry.mutate({ id })}
              retrying={retry.isPending ? retry.variables?.id : null}
              caption="Failed webhook deliveries, newest first"
            />
            <Pager pages={pages} page={page} busy={query.isFetching} />
          </>
        )}
      </QueryView>
    </section>
  );
}
