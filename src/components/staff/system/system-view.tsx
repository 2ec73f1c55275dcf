"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { formatDateTime } from "@/components/ui/format";
import { QueryView } from "@/components/ui/states";
import { TableWrap } from "@/components/ui/table-wrap";
import { useTRPC } from "@/lib/trpc/client";
import { AttemptsChart, QueueChart } from "./system-charts";
import type { SystemView as View } from "./types";

/** Refreshed every 30 s while open: the figures are minutes wide. */
const REFRESH_MS = 30_000;

export function SystemView() {
  const trpc = useTRPC();
  const query = useQuery(trpc.staff.system.queryOptions(undefined, { refetchInterval: REFRESH_MS }));
  return (
    <QueryView query={query} what="the system state">
      {(view) => (
        <>
          <QueueNow view={view} />
          <section className="card" aria-labelledby="queue-heading">
            <h2 id="queue-heading">Queue and lag, last hour</h2>
            <QueueChart minutes={view.minutes} />
          </section>
          <section className="card" aria-labelledby="attempts-heading">
            <h2 id="attempts-heading">Attempts per minute by result</h2>
            <AttemptsChart minutes={view.minutes} />
            <MinuteTable minutes={view.minutes} />
          </section>
          <TroubledEndpoints endpoints={view.troubledEndpoints} />
          <DisabledEndpoints endpoints={view.disabledEndpoints} />
          <SlowestEndpoints endpoints={view.slowestEndpoints} />
          <Pool pool={view.pool} />
          <p className="muted">As of {formatDateTime(view.generatedAt)}; refreshed every 30 s.</p>
        </>
      )}
    </QueryView>
  );
}

function QueueNow({ view }: { view: View }) {
  return (
    <dl className="stat-grid" aria-label="The delivery queue now">
      <div className="stat">
        <dt>Due, not yet sent</dt>
        <dd>{view.queue.due}</dd>
      </div>
      <div className="stat">
        <dt>Oldest due waiting</dt>
        <dd>{formatSeconds(view.queue.oldestDueSeconds)}</dd>
      </div>
      <div className="stat">
        <dt>In flight</dt>
        <dd>{view.queue.inFlight}</dd>
      </div>
      <div className="stat">
        <dt>Open breakers</dt>
        <dd>{view.queue.breakersOpen}</dd>
      </div>
    </dl>
  );
}

function MinuteTable({ minutes }: { minutes: View["minutes"] }) {
  const active = minutes.filter((minute) => minute.due > 0 || Object.keys(minute.attempts).length > 0);
  return (
    <details>
      <summary>Show the minutes as a table</summary>
      {active.length === 0 ? (
        <p className="state">Nothing was due or sent in the last hour.</p>
      ) : (
        <TableWrap label="Queue and attempts per minute">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Minute to (UTC)</th>
                <th scope="col" className="num">Due</th>
                <th scope="col">Attempts</th>
                <th scope="col" className="num">Lag p99</th>
                <th scope="col" className="num">Lag max</th>
              </tr>
            </thead>
            <tbody>
              {active.map((minute) => (
                <tr key={minute.at}>
                  <td>{minute.at.slice(11, 16)}</td>
                  <td className="num">{minute.due}</td>
                  <td>{Object.entries(minute.attempts).map(([outcome, n]) => `${outcome === "ok" ? "delivered" : outcome} ${n}`).join(", ") || "—"}</td>
                  <td className="num">{formatMs(minute.lagP99Ms)}</td>
                  <td className="num">{formatMs(minute.lagMaxMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </details>
  );
}

function TroubledEndpoints({ endpoints }: { endpoints: View["troubledEndpoints"] }) {
  return (
    <EndpointSection
      title="Endpoints with failures"
      tableLabel="Failing endpoints and their breakers"
      empty="Every endpoint answered its last attempt."
      columns={[{ label: "Breaker" }, { label: "Failures in a row", numeric: true }]}
      endpoints={endpoints}
      cells={(endpoint) => [breakerLabel(endpoint), endpoint.consecutiveFailures]}
    />
  );
}

const DISABLED_REASONS = { manual: "by the merchant", failing: "failing too long", gone: "answered 410 Gone" } as const;

function DisabledEndpoints({ endpoints }: { endpoints: View["disabledEndpoints"] }) {
  return (
    <EndpointSection
      title="Disabled endpoints"
      tableLabel="Disabled endpoints and why"
      empty="No endpoint is disabled."
      columns={[{ label: "Why" }, { label: "Since" }]}
      endpoints={endpoints}
      cells={(endpoint) => [endpoint.reason ? DISABLED_REASONS[endpoint.reason] : "–", formatDateTime(endpoint.since)]}
    />
  );
}

function SlowestEndpoints({ endpoints }: { endpoints: View["slowestEndpoints"] }) {
  return (
    <EndpointSection
      title="Slowest endpoints, last hour"
      tableLabel="Endpoint latencies"
      empty="No attempts in the last hour."
      columns={["p95", "Average", "Attempts", "Failed"].map((label) => ({ label, numeric: true }))}
      endpoints={endpoints}
      cells={(endpoint) => [formatMs(endpoint.p95Ms), formatMs(endpoint.avgMs), endpoint.attempts, endpoint.failures]}
    />
  );
}

/** A card listing endpoints by merchant (linked to the staff view of the merchant) and URL, then `columns`. */
function EndpointSection<E extends { merchantId: string; merchantName: string; url: string }>(props: {
  title: string;
  tableLabel: string;
  empty: string;
  /** The columns after merchant and endpoint; numeric ones are right-aligned. */
  columns: { label: string; numeric?: boolean }[];
  endpoints: E[];
  cells: (endpoint: E) => (string | number)[];
}) {
  const headingId = `${props.title.toLowerCase().replace(/\W+/g, "-")}-heading`;
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{props.title}</h2>
      {props.endpoints.length === 0 ? (
        <p className="state">{props.empty}</p>
      ) : (
        <TableWrap label={props.tableLabel}>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Merchant</th>
                <th scope="col">Endpoint</th>
                {props.columns.map((column) => (
                  <th key={column.label} scope="col" className={column.numeric ? "num" : undefined}>
                    {column.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {props.endpoints.map((endpoint) => (
                <tr key={`${endpoint.merchantId} ${endpoint.url}`}>
                  <td>
                    <Link href={`/dashboard/staff/merchants/${endpoint.merchantId}`}>{endpoint.merchantName}</Link>
                  </td>
                  <td className="wrap">{endpoint.url}</td>
                  {props.cells(endpoint).map((cell, i) => (
                    <td key={props.columns[i]!.label} className={props.columns[i]!.numeric ? "num" : undefined}>
                      {cell}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}

function Pool({ pool }: { pool: View["pool"] }) {
  return (
    <section className="card" aria-labelledby="pool-heading">
      <h2 id="pool-heading">Database pool (the process that answered)</h2>
      {pool === null ? (
        <p className="state">Embedded database: one in-process instance, no connection pool.</p>
      ) : (
        <dl className="stat-grid" style={{ marginBottom: 0 }}>
          <div className="stat">
            <dt>In use</dt>
            <dd>
              {pool.inUse} <small>of {pool.max}</small>
            </dd>
          </div>
          <div className="stat">
            <dt>Idle</dt>
            <dd>{pool.idle}</dd>
          </div>
          <div className="stat">
            <dt>Queries waiting</dt>
            <dd>{pool.waiting}</dd>
          </div>
        </dl>
      )}
    </section>
  );
}

function breakerLabel(endpoint: View["troubledEndpoints"][number]): string {
  if (endpoint.state === "open") return `open until ${formatDateTime(endpoint.openUntil)}`;
  return endpoint.state === "half_open" ? "half-open (probing)" : "closed, failing";
}

function formatMs(ms: number | null): string {
  if (ms === null) return "—";
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

function formatSeconds(seconds: number): string {
  if (seconds < 1) return "—";
  if (seconds < 120) return `${Math.round(seconds)} s`;
  return seconds < 7200 ? `${Math.round(seconds / 60)} min` : `${Math.round(seconds / 3600)} h`;
}
