import Link from "next/link";
import { StatusBadge } from "@/components/ui/badge";
import { formatDateTime } from "@/components/ui/format";
import type { SubjectEvent } from "./types";

/** A payment's or invoice's events, oldest first, each with the webhook deliveries that carry it. */
export function PaymentHistory({ events, deliveryHref }: { events: SubjectEvent[]; deliveryHref?: (id: string) => string }) {
  return (
    <section className="card" aria-labelledby="history-heading">
      <h2 id="history-heading">Events and webhook deliveries</h2>
      {events.length === 0 ? (
        <p className="muted">No events recorded yet.</p>
      ) : (
        <ol className="form" style={{ paddingLeft: "1.2rem" }}>
          {events.map((event) => (
            <li key={event.id}>
              <strong>{event.type}</strong> <span className="muted">{formatDateTime(event.createdAt)}</span> · <code>{event.id}</code>
              {event.deliveries.length === 0 ? (
                <p className="muted" style={{ margin: "0.25rem 0 0" }}>
                  No webhook delivery (no webhook URL, or not subscribed to this event).
                </p>
              ) : (
                <ul>
                  {event.deliveries.map((delivery) => (
                    <li key={delivery.id}>
                      <StatusBadge kind="delivery" status={delivery.status} />{" "}
                      {deliveryHref ? <Link href={deliveryHref(delivery.id)}>{delivery.id}</Link> : <code>{delivery.id}</code>} to{" "}
                      <code>{delivery.url}</code>, {delivery.attemptCount} attempt{delivery.attemptCount === 1 ? "" : "s"}
                      {delivery.lastStatusCode ? `, last answer ${delivery.lastStatusCode}` : ""}
                      {delivery.lastError ? `, last error: ${delivery.lastError}` : ""}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
