"use client";

import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Pager } from "@/components/ui/pager";
import { QueryView } from "@/components/ui/states";
import { useCursorPages } from "@/components/ui/use-cursor-pages";
import { eventTypes } from "@/lib/event-types";
import { useTRPC } from "@/lib/trpc/client";
import { usePermissions } from "@/components/shell/use-permissions";
import { DeliveriesTable } from "./deliveries-table";
import { RetryAll } from "./retry-all";
import { RetryFeedback } from "./retry-feedback";
import { StatusOptions } from "@/components/ui/badge";
import { deliveryStatuses } from "@/lib/statuses";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

type EventType = (typeof eventTypes)[number];

/**
 * Every delivery, newest first (docs/dashboard.md): filters by status, event type and endpoint kept in the URL
 * (shareable, back button), a search by delivery id (opens it) or event id (its deliveries), retry per row and all.
 */
export function DeliveryLog() {
  const trpc = useTRPC();
  const refreshAfterWrite = useRefreshAfterWrite();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const pages = useCursorPages();
  const [notice, setNotice] = useState<string | null>(null);
  const { mayCall } = usePermissions();
  const status = deliveryStatuses.find((value) => value === params.get("status"));
  const eventType = eventTypes.find((value) => value === params.get("eventType"));
  const endpointId = params.get("endpointId") || undefined;
  const eventId = params.get("eventId") || undefined;
  const endpoints = useQuery(trpc.webhookEndpoints.list.queryOptions());
  const query = useQuery({
    ...trpc.webhooks.deliveries.queryOptions({
      cursor: pages.cursor,
      limit: 20,
      status: status ? [status] : undefined,
      eventType: eventType ? [eventType] : undefined,
      endpointId,
      eventId,
    }),
    placeholderData: keepPreviousData,
  });
  const retry = useMutation(
    trpc.webhooks.retry.mutationOptions({
      onSuccess: async (delivery) => {
        setNotice(`Delivery ${delivery.id} is queued for another attempt now.`);
        await refreshAfterWrite(trpc.webhooks.pathKey());
      },
    }),
  );

  const setFilter = (name: string, value: string | undefined) => {
    const next = new URLSearchParams(params.toString());
    if (value) next.set(name, value);
    else next.delete(name);
    pages.reset();
    router.replace(`${pathname}${next.size > 0 ? `?${next}` : ""}`, { scroll: false });
  };

  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const id = String(new FormData(event.currentTarget).get("id") ?? "").trim();
    if (id.startsWith("whd_")) router.push(`/dashboard/webhooks/deliveries/${encodeURIComponent(id)}`);
    else setFilter("eventId", id || undefined);
  }

  const caption = status === "failed" ? "Failed webhook deliveries, newest first" : "Webhook deliveries, newest first";
  return (
    <section className="card" aria-labelledby="log-heading">
      <div className="page-header" style={{ marginBottom: "0.75rem", flexWrap: "wrap" }}>
        <h2 id="log-heading">Deliveries</h2>
        {/* Nothing listed, nothing to offer: the button appears with the first delivery. */}
        {query.data?.data.length ? <RetryAll onDone={(count) => setNotice(`${count} failed deliveries are queued for another attempt.`)} /> : null}
      </div>
      <div className="form-row" style={{ flexWrap: "wrap", alignItems: "end" }}>
        <div className="field">
          <label htmlFor="log-status">Status</label>
          <select id="log-status" value={status ?? ""} onChange={(event) => setFilter("status", event.target.value || undefined)}>
            <option value="">Any</option>
            <StatusOptions kind="delivery" />
          </select>
        </div>
        <div className="field">
          <label htmlFor="log-event-type">Event type</label>
          <select id="log-event-type" value={eventType ?? ""} onChange={(event) => setFilter("eventType", event.target.value || undefined)}>
            <option value="">Any</option>
            {eventTypes.map((value: EventType) => (
              <option key={value}>{value}</option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="log-endpoint">Endpoint</label>
          <select id="log-endpoint" value={endpointId ?? ""} onChange={(event) => setFilter("endpointId", event.target.value || undefined)}>
            <option value="">Any</option>
            {endpoints.data?.data.map((endpoint) => (
              <option key={endpoint.id} value={endpoint.id}>
                {endpoint.description || endpoint.url || "Default endpoint"}
              </option>
            ))}
          </select>
        </div>
        <form className="form-row" role="search" onSubmit={search} style={{ flexWrap: "wrap", alignItems: "end" }}>
          <div className="field">
            <label htmlFor="log-search">Delivery or event id</label>
            <input id="log-search" name="id" type="search" defaultValue={eventId ?? ""} placeholder="whd_… or evt_…" />
          </div>
          <button type="submit" className="btn btn-small">
            Search
          </button>
        </form>
      </div>
      <RetryFeedback notice={notice} error={retry.error} />
      <QueryView
        query={query}
        what="deliveries"
        empty={status === "failed" ? "No failed deliveries. Deliveries that exhaust their retries appear here." : "No deliveries match."}
      >
        {(page) => (
          <>
            <DeliveriesTable
              deliveries={page.data}
              detailHref={(id) => `/dashboard/webhooks/deliveries/${id}`}
              onRetry={mayCall("webhooks.retry") ? (id) => retry.mutate({ id }) : undefined}
              retryProcedure="webhooks.retry"
              retrying={retry.isPending ? retry.variables?.id : null}
              caption={caption}
            />
            <Pager pages={pages} page={page} busy={query.isFetching} />
          </>
        )}
      </QueryView>
    </section>
  );
}
