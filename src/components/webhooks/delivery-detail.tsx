"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { StatusBadge } from "@/components/ui/badge";
import { CopyButton } from "@/components/ui/copy-button";
import { formatDateTime } from "@/components/ui/format";
import { QueryView } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { usePermissions } from "@/components/shell/use-permissions";
import { Attempts } from "./attempts";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

/** One delivery: its state, every attempt, the payload, retry, and a signed curl to replay it by hand. */
export function DeliveryDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const refreshAfterWrite = useRefreshAfterWrite();
  const [curlShown, setCurlShown] = useState(false);
  const { mayCall } = usePermissions();
  const query = useQuery(trpc.webhooks.delivery.queryOptions({ id }, { retry: false, refetchInterval: (q) => (q.state.data?.status === "pending" || q.state.data?.status === "delivering" ? 1000 : false) }));
  const curl = useQuery(trpc.deliveries.curl.queryOptions({ id }, { enabled: curlShown, staleTime: 0, gcTime: 0 }));
  const retry = useMutation(
    trpc.webhooks.retry.mutationOptions({ onSuccess: () => refreshAfterWrite(trpc.webhooks.pathKey()) }),
  );

  return (
    <>
      <p>
        <Link href="/dashboard/webhooks">← Webhooks</Link>
      </p>
      <div className="page-header">
        <h1>
          Delivery <code>{id}</code>
        </h1>
      </div>
      <QueryView query={query} what="the delivery">
        {(delivery) => (
          <>
            <section className="card" aria-labelledby="delivery-heading">
              <h2 id="delivery-heading">State</h2>
              <dl className="details">
                <dt>Status</dt>
                <dd>
                  <StatusBadge kind="delivery" status={delivery.status} />
                </dd>
                <dt>Event</dt>
                <dd>
                  {delivery.eventType} · <code>{delivery.eventId}</code>
                </dd>
                <dt>URL</dt>
                <dd>
                  <code>{delivery.url}</code>
                </dd>
                <dt>Attempts</dt>
                <dd>{delivery.attemptCount}</dd>
                <dt>Next attempt</dt>
                <dd>{formatDateTime(delivery.nextAttemptAt)}</dd>
              </dl>
              <div className="form-row" style={{ marginTop: "0.75rem" }}>
                {delivery.status === "failed" && mayCall("webhooks.retry") ? (
                  <button type="button" className="btn btn-primary" data-procedure="webhooks.retry" disabled={retry.isPending} onClick={() => retry.mutate({ id })}>
                    {retry.isPending ? "Retrying…" : "Retry now"}
                  </button>
                ) : null}
                <button type="button" className="btn" onClick={() => setCurlShown((shown) => !shown)} aria-expanded={curlShown}>
                  {curlShown ? "Hide curl command" : "Copy as curl…"}
                </button>
              </div>
              {retry.error ? (
                <p className="alert alert-error" role="alert">
                  Could not retry: {retry.error.message}
                </p>
              ) : null}
              {curlShown ? (
                <QueryView query={curl} what="the curl command">
                  {({ command }) => (
                    <div>
                      <p className="field-hint">Freshly signed; its timestamp is accepted for 5 minutes.</p>
                      <pre className="code">{command}</pre>
                      <CopyButton value={command} label="Copy curl command" />
                    </div>
                  )}
                </QueryView>
              ) : null}
            </section>
            <section className="card" aria-labelledby="attempts-heading">
              <h2 id="attempts-heading">Attempts</h2>
              <Attempts attempts={delivery.attempts} />
            </section>
            <section className="card" aria-labelledby="payload-heading">
              <h2 id="payload-heading">Payload</h2>
              <pre className="code">{JSON.stringify(delivery.payload, null, 2)}</pre>
            </section>
          </>
        )}
      </QueryView>
    </>
  );
}
