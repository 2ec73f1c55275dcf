"use client";

import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { formatDateTime } from "@/components/ui/format";
import { QueryView } from "@/components/ui/states";
import { TableWrap } from "@/components/ui/table-wrap";
import { LINE_STATUSES, useReconciliationApi, type LineStatus } from "./use-reconciliation";

/** One report: its summary, its lines by status a page at a time, resolving one or all matched, export. */
export function ReportView({ merchantId, id }: { merchantId?: string; id: string }) {
  const api = useReconciliationApi(merchantId);
  const [status, setStatus] = useState<LineStatus | undefined>(undefined);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors.at(-1);
  const report = useQuery({ ...api.get({ id, status, cursor }), placeholderData: keepPreviousData });
  const [message, setMessage] = useState<string | null>(null);
  const resolveMatched = useMutation({
    ...api.resolveMatched(),
    onSuccess: async (result: { resolved: number }) => {
      setMessage(`${result.resolved} matched payment(s) marked reconciled.`);
      await api.invalidate();
    },
  });

  function bulk(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setMessage(null);
    const note = String(new FormData(event.currentTarget).get("note") ?? "").trim();
    resolveMatched.mutate({ ...api.scope, id, note } as never);
  }

  return (
    <section className="card" aria-labelledby="report-heading">
      <h2 id="report-heading">
        Report <code>{id}</code>
      </h2>
      <QueryView query={report} what="the report" isEmpty={() => false}>
        {(data) => (
          <>
            <p>
              {formatDateTime(data.createdAt)} · {data.fileLines} file lines · window{" "}
              {data.window.from ? `${formatDateTime(data.window.from)} – ${formatDateTime(data.window.to ?? data.window.from)}` : "none"} ·{" "}
              <a href={`/dashboard/reconciliation/${id}/export${api.query({})}`} download>
                Export CSV
              </a>
            </p>
            <dl className="details" aria-label="Summary">
              {LINE_STATUSES.map((name) => (
                <div key={name}>
                  <dt>{name}</dt>
                  <dd data-testid={`summary-${name}`}>{data.summary[name]}</dd>
                </div>
              ))}
            </dl>
            <form className="form-row" onSubmit={bulk}>
              <div className="field">
                <label htmlFor="bulk-note">Note for all matched lines</label>
                <input id="bulk-note" name="note" required maxLength={2000} />
              </div>
              <button type="submit" className="btn btn-primary" disabled={resolveMatched.isPending}>
                Mark all matched reconciled
              </button>
            </form>
            {message ? <p className="alert alert-success" role="status">{message}</p> : null}
            {resolveMatched.error ? <p className="alert alert-error" role="alert">{resolveMatched.error.message}</p> : null}
            <div className="field">
              <label htmlFor="line-status">Show</label>
              <select
                id="line-status"
                value={status ?? ""}
                onChange={(event) => {
                  setStatus((event.currentTarget.value || undefined) as LineStatus | undefined);
                  setCursors([undefined]);
                }}
              >
                <option value="">all lines</option>
                {LINE_STATUSES.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </div>
            <LinesTable merchantId={merchantId} id={id} lines={data.lines} />
            <div className="form-row">
              {cursors.length > 1 ? (
                <button type="button" className="btn" onClick={() => setCursors(cursors.slice(0, -1))}>
                  Previous lines
                </button>
              ) : null}
              {data.hasMore && data.nextCursor ? (
                <button type="button" className="btn" onClick={() => setCursors([...cursors, data.nextCursor!])}>
                  Next lines
                </button>
              ) : null}
            </div>
          </>
        )}
      </QueryView>
    </section>
  );
}

interface Line {
  position: number;
  lineNumber: number | null;
  status: string;
  reason: string | null;
  externalId: string | null;
  reference: string | null;
  fileAmount: string | null;
  ledgerAmount: string | null;
  currency: string | null;
  paymentId: string | null;
  resolvedAt: string | null;
  resolutionNote: string | null;
}

function LinesTable({ merchantId, id, lines }: { merchantId?: string; id: string; lines: Line[] }) {
  return (
    <TableWrap label="Report lines">
      <table className="table">
        <caption className="visually-hidden">Report lines</caption>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Status</th>
            <th scope="col">External id / reference</th>
            <th scope="col">File amount</th>
            <th scope="col">Ledger amount</th>
            <th scope="col">Currency</th>
            <th scope="col">Resolution</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <tr key={line.position} data-status={line.status}>
              <td>{line.lineNumber ?? "—"}</td>
              <td>
                <span className={`badge badge-${line.status}`}>{line.status}</span>
                {line.reason ? <div className="field-hint">{line.reason}</div> : null}
              </td>
              <td>{line.externalId ?? line.reference ?? "—"}</td>
              <td>{line.fileAmount ?? "—"}</td>
              <td>{line.ledgerAmount ?? "—"}</td>
              <td>{line.currency ?? "—"}</td>
              <td>{line.resolvedAt ? line.resolutionNote : line.paymentId ? <ResolveLine merchantId={merchantId} id={id} position={line.position} /> : "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

function ResolveLine({ merchantId, id, position }: { merchantId?: string; id: string; position: number }) {
  const api = useReconciliationApi(merchantId);
  const resolve = useMutation({ ...api.resolveLine(), onSuccess: () => api.invalidate() });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const note = String(new FormData(event.currentTarget).get("note") ?? "").trim();
    resolve.mutate({ ...api.scope, id, position, note } as never);
  }
  return (
    <form className="form-row" onSubmit={submit}>
      <label className="visually-hidden" htmlFor={`note-${position}`}>
        Note for line {position}
      </label>
      <input id={`note-${position}`} name="note" required maxLength={2000} placeholder="Note" />
      <button type="submit" className="btn btn-small" disabled={resolve.isPending}>
        Resolve
      </button>
      {resolve.error ? <span role="alert">{resolve.error.message}</span> : null}
    </form>
  );
}
