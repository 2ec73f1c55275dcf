"use client";

import { useQuery } from "@tanstack/react-query";
import { useSubmission } from "@/components/ui/use-submission";
import { useState } from "react";
import { DeliveriesTable } from "@/components/webhooks/deliveries-table";
import { QueryView } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { RetryFeedback } from "@/components/webhooks/retry-feedback";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

/** A merchant's failed deliveries, for support staff to retry on the merchant's behalf (audit-logged). */
export function StaffFailedDeliveries({ merchantId }: { merchantId: string }) {
  const trpc = useTRPC();
  const refreshAfterWrite = useRefreshAfterWrite();
  const [notice, setNotice] = useState<string | null>(null);
  const query = useQuery(trpc.staff.failedDeliveries.queryOptions({ merchantId, limit: 50 }));
  const retry = useSubmission(
    trpc.webhooks.staffRetry.mutationOptions({
      onSuccess: async (delivery) => {
        setNotice(`Delivery ${delivery.id} is queued for another attempt now.`);
        await refreshAfterWrite(trpc.staff.failedDeliveries.queryKey());
      },
    }),
  );
  return (
    <section className="card" aria-labelledby="staff-failed-heading">
      <h2 id="staff-failed-heading">Failed webhook deliveries</h2>
      <RetryFeedback notice={notice} error={retry.error} />
      <QueryView query={query} what="failed deliveries" empty="This merchant has no failed deliveries.">
        {(page) => (
          <DeliveriesTable
            deliveries={page.data}
            onRetry={(id) => void retry.submit({ merchantId, id })}
            retrying={retry.pending ? retry.variables?.input.id : null}
            caption="Failed webhook deliveries of this merchant"
          />
        )}
      </QueryView>
    </section>
  );
}
