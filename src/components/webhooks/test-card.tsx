"use client";

import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/lib/trpc/client";
import { usePermissions } from "@/components/shell/use-permissions";
import { statusLabel } from "@/lib/statuses";

/** Check the configured URL (nothing sent), or send a signed `webhook.test` event now. */
export function TestCard() {
  const trpc = useTRPC();
  const send = useMutation(trpc.webhooks.sendTest.mutationOptions());
  const result = send.data;
  // Only for who may send one: the card is nothing but its two buttons.
  if (!usePermissions().mayCall("webhooks.sendTest")) return null;
  return (
    <section className="card" aria-labelledby="test-heading">
      <h2 id="test-heading">Test the endpoint</h2>
      <div className="form-row" data-procedure="webhooks.sendTest">
        <button type="button" className="btn" disabled={send.isPending} onClick={() => send.mutate({ dryRun: true })}>
          Check the URL
        </button>
        <button type="button" className="btn btn-primary" disabled={send.isPending} onClick={() => send.mutate({ dryRun: false })}>
          {send.isPending ? "Sending…" : "Send a test event"}
        </button>
      </div>
      <div aria-live="polite">
        {send.error ? (
          <p className="alert alert-error" role="alert">
            {send.error.message}
          </p>
        ) : null}
        {result ? (
          !result.usable ? (
            <p className="alert alert-error">The URL cannot be used: {result.message ?? result.reason}.</p>
          ) : send.variables?.dryRun ? (
            <p className="alert alert-success">The URL {result.url} can receive webhooks.</p>
          ) : result.delivered ? (
            <p className="alert alert-success">
              Delivered: HTTP {result.statusCode} in {result.latencyMs} ms.{" "}
              {result.deliveryId ? <Link href={`/dashboard/webhooks/deliveries/${result.deliveryId}`}>See the delivery</Link> : null}
            </p>
          ) : (
            <p className="alert alert-error">
              Not delivered: {result.statusCode ? `HTTP ${result.statusCode}` : (result.errorClass ? statusLabel("errorClass", result.errorClass) : "no answer")}
              {result.responseSnippet ? ` — ${result.responseSnippet.slice(0, 200)}` : ""}.{" "}
              {result.deliveryId ? <Link href={`/dashboard/webhooks/deliveries/${result.deliveryId}`}>See the delivery</Link> : null}
            </p>
          )
        ) : null}
      </div>
    </section>
  );
}
