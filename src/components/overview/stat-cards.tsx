import type { Stats } from "./types";

function percent(rate: number | null) {
  return rate === null ? "—" : `${(rate * 100).toFixed(1)} %`;
}

export function StatCards({ stats }: { stats: Stats }) {
  const { payments, webhooks, volume } = stats;
  return (
    <>
      <dl className="stat-grid" aria-label="Payments in the window">
        <div className="stat">
          <dt>Payments</dt>
          <dd>{payments.total}</dd>
        </div>
        <div className="stat">
          <dt>Confirmed</dt>
          <dd>{payments.confirmed}</dd>
        </div>
        <div className="stat">
          <dt>Pending</dt>
          <dd>{payments.pending}</dd>
        </div>
        <div className="stat">
          <dt>Failed</dt>
          <dd>{payments.failed}</dd>
        </div>
        <div className="stat">
          <dt>Webhook success rate</dt>
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
                <dt>{item.currency}</dt>
                <dd>
                  {item.amount}
                  <small>
                    {item.count} payment{item.count === 1 ? "" : "s"}
                  </small>
                </dd>
              </div>
            ))}
          </dl>
        )}
      </section>
    </>
  );
}
