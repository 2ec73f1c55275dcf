"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { StatusBadge } from "@/components/ui/badge";
import { CopyButton } from "@/components/ui/copy-button";
import { formatDateTime } from "@/components/ui/format";
import { ErrorMessage, Loading } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { Attempts } from "./attempts";

/** One delivery: its state, every attempt, the payload, retry, and a signed curl to replay it by hand. */
export function DeliveryDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [curlShown, setCurlShown] = useState(false);
  const query = useQuery(trpc.webhooks.delivery.queryOptions({ id }, { retry: false, refetchInterval: (q) => (q.state.data?.status === "pending" || q.state.data?.status === "delivering" ? 1000 : false) }));
  const curl = useQuery(trpc.deliveries.curl.queryOptions({ id }, { enabled: curlShown, staleTime: 0, gcTime: 0 }));
  const retry = useMutation(
    trpc.webhooks.retry.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() }) }),
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
      {query.isPending ? (
        <Loading what="the delivery" />
      ) : query.isError ? (
        <ErrorMessage error={query.error} what="the delivery" />
      ) : (
        <>
          <section className="card" aria-labelledby="delivery-heading">
            <h2 id="delivery-heading">State</h2>
            <dl className="details">
              <dt>Status</dt>
              <dd>
                <StatusBadge status={query.data.status} />
              </dd>
              <dt>Event</dt>
              <dd>
                {query.data.eventType} · <code>{query.data.eventId}</code>
              </dd>
              <dt>URL</dt>
              <dd>
                <code>{query.data.url}</code>
              </dd>
              <dt>Attempts</dt>
              <dd>{query.data.attemptCount}</dd>
              <dt>Next attempt</dt>
              <dd>{formatDateTime(query.data.nextAttemptAt)}</dd>
            </dl>
            <div className="form-row" style={{ marginTop: "0.75rem" }}>
              {query.data.status === "failed" ? (
                <button type="button" className="btn btn-primary" disabled={retry.isPending} onClick={() => retry.mutate({ id })}>
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
              curl.isPending ? (
                <Loading what="the curl command" />
              ) : curl.isError ? (
                <ErrorMessage error={curl.error} what="the curl command" />
              ) : (
                <div>
                  <p className="field-hint">Freshly signed; its timestamp is accepted for 5 minutes.</p>
                  <pre className="code">{curl.data.command}</pre>
                  <CopyButton value={curl.data.command} label="Copy curl command" />
                </div>
              )
            ) : null}
          </section>
          <section className="card" aria-labelledby="attempts-heading">
            <h2 id="attempts-heading">Attempts</h2>
            <Attempts attempts={query.data.attempts} />
          </section>
          <section className="card" aria-labelledby="payload-heading">
            <h2 id="payload-heading">Payload</h2>
            <pre className="code">{JSON.stringify(query.data.payload, null, 2)}</pre>
          </section>
        </>
      )}
    </>
  );
}
