import { TableWrap } from "@/components/ui/table-wrap";
import { StatusBadge } from "@/components/ui/badge";
import { LongValue } from "@/components/ui/long-value";
import { When } from "@/components/ui/when";
import type { DeliveryView } from "./types";

/** Failed deliveries with what went wrong last, a link to the attempts and a retry button per row. */
export function DeliveriesTable({
  deliveries,
  detailHref,
  onRetry,
  retryProcedure,
  retrying,
  caption,
}: {
  deliveries: DeliveryView[];
  detailHref?: (id: string) => string;
  /** Absent: no Retry buttons (the reader's role may not retry). */
  onRetry?: (id: string) => void;
  /** The procedure `onRetry` calls, marked on each button (data-procedure). */
  retryProcedure?: string;
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
              <td>
                <LongValue value={delivery.id} what="delivery id" href={detailHref?.(delivery.id)} code width={14} />
              </td>
              <td>{delivery.eventType}</td>
              <td>
                <StatusBadge kind="delivery" status={delivery.status} />
              </td>
              <td className="num">{delivery.attemptCount}</td>
              <td className="wrap">
                {delivery.lastStatusCode ? `HTTP ${delivery.lastStatusCode}` : ""}
                {delivery.lastStatusCode && delivery.lastError ? " · " : ""}
                {delivery.lastError ?? (delivery.lastStatusCode ? "" : "—")}
              </td>
              <td>
                <When value={delivery.createdAt} />
              </td>
              <td>
                {delivery.status === "failed" && onRetry ? (
                  <button
                    type="button"
                    className="btn btn-small"
                    data-procedure={retryProcedure}
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
