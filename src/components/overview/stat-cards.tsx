import Link from "next/link";
import { formatMoney } from "@/lib/format-money";
import type { Stats } from "./types";

function percent(rate: number | null) {
  return rate === null ? "—" : `${(rate * 100).toFixed(1)} %`;
}

/** Where a card leads: the payments list with the card's filter (a window of creation days, as that list filters). */
export type PaymentsLink = (filters: { status?: string; currency?: string }) => string;

/** Each card opens what it counts: the payments behind a figure, or the failed deliveries behind the rate. */
export function StatCards({ stats, paymentsLink, webhooksHref }: { stats: Stats; paymentsLink?: PaymentsLink; webhooksHref?: string }) {
  const { payments, webhooks, volume, netVolume, refunds } = stats;
  const card = (label: string, value: number, status?: string) => (
    <div className="stat" key={label}>
      <dt>{paymentsLink ? <Link href={paymentsLink({ status })}>{label}</Link> : label}</dt>
      <dd>{value}</dd>
    </div>
  );
  return (
    <>
      <dl className="stat-grid" aria-label="Payments in the window">
        {card("All payments", payments.total)}
        {card("Confirmed", payments.confirmed, "confirmed")}
        {card("Pending", payments.pending, "pending")}
        {card("Failed", payments.failed, "failed")}
        <div className="stat">
          <dt>{webhooksHref ? <Link href={webhooksHref}>Webhook success rate</Link> : "Webhook success rate"}</dt>
          <dd>
            {percent(webhooks.successRate)}
            <small>
              {webhooks.delivered} delivered · {webhooks.pending} pending · {webhooks.failed} failed
            </small>
          </dd>
        </div>
      </dl>
      <section className="card" aria-labelledby="volume-heading">
        <h2 id="volume-heading">Confirmed volume</h2>
        {volume.length === 0 ? (
          <p className="muted">No confirmed payments in this window.</p>
        ) : (
          <dl className="stat-grid" style={{ marginBottom: 0 }}>
            {volume.map((item) => (
              <div className="stat" key={item.currency}>
                <dt>{paymentsLink ? <Link href={paymentsLink({ status: "confirmed", currency: item.currency })}>{item.currency}</Link> : item.currency}</dt>
                <dd>
                  {formatMoney(item.amount, item.currency)}
                  <small>
                    {item.count} payment{item.count === 1 ? "" : "s"}
                  </small>
                </dd>
              </div>
            ))}
          </dl>
        )}
        {refunds.length > 0 ? (
          <>
            <h3 id="net-volume-heading">Net of refunds</h3>
            <dl className="stat-grid" style={{ marginBottom: 0 }} aria-labelledby="net-volume-heading">
              {netVolume.map((item) => {
                const refunded = refunds.find((entry) => entry.currency === item.currency);
                return (
                  <div className="stat" key={item.currency} data-testid={`net-volume-${item.currency}`}>
                    <dt>{item.currency}</dt>
                    <dd>
                      {formatMoney(item.amount, item.currency)}
                      <small>{refunded ? `${formatMoney(refunded.amount, item.currency)} refunded (${refunded.count})` : "no refunds"}</small>
                    </dd>
                  </div>
                );
              })}
            </dl>
          </>
        ) : null}
      </section>
    </>
  );
}
