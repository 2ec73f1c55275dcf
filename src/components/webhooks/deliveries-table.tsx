import { TableWrap } from "@/components/ui/table-wrap";
import Link from "next/link";
import { StatusBadge } from "@/components/ui/badge";
import { formatDate } from "@/components/ui/format";

export interface DeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  status: string;
  url: string;
  attemptCount: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
}

/** Failed deliveries with what went wrong last, a link to the attempts and a retry button per row. */
export function DeliveriesTable({
  deliveries,
  detailHref,
  onRetry,
  retrying,
  caption,
}: {
  deliveries: DeliveryView[];
  detailHref?: (id: string) => string;
  onRetry: (id: string) => void;
  retrying?: string | null;
  caption: string;
}) {
  return (
    <TableWrap label={caption}>
      <table className="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Delivery</th>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">Attempts</th>
            <th scope="col">Last answer</th>
            <th scope="col">Created</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((delivery) => (
            <tr key={delivery.id}>
              <td>{detailHref ? <Link href={detailHref(delivery.id)}>{delivery.id}</Link> : <code>{delivery.id}</code>}</td>
              <td>{delivery.eventType}</td>
              <td>
                <StatusBadge status={delivery.status} />
              </td>
              <td className="num">{delivery.attemptCount}</td>
              <td style={{ whiteSpace: "normal", minWidth: "10rem" }}>
                {delivery.lastStatusCode ? `HTTP ${delivery.lastStatusCode}` : ""}
                {delivery.lastStatusCode && delivery.lastError ? " · " : ""}
                {delivery.lastError ?? (delivery.lastStatusCode ? "" : "—")}
              </td>
              <td>{formatDate(delivery.createdAt)}</td>
              <td>
                {delivery.status === "failed" ? (
                  <button
                    type="button"
                    className="btn btn-small"
                    onClick={() => onRetry(delivery.id)}
                    disabled={retrying === delivery.id}
                    aria-label={`Retry delivery ${delivery.id}`}
                  >
                    {retrying === delivery.id ? "Retrying…" : "Retry"}
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
