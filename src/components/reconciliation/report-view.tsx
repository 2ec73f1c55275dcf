"use client";

import { keepPreviousData, useQuery, type UseMutationOptions } from "@tanstack/react-query";
import { useSubmission } from "@/components/ui/use-submission";
import { useState, type FormEvent } from "react";
import { formatDateTime } from "@/components/ui/format";
import { QueryView } from "@/components/ui/states";
import { TableWrap } from "@/components/ui/table-wrap";
import { LongValue } from "@/components/ui/long-value";
import { LINE_STATUSES, useReconciliationApi, type LineStatus } from "./use-reconciliation";
import type { LineView } from "./types";
import { StatusBadge, StatusOptions } from "@/components/ui/badge";
import { statusLabel } from "@/lib/statuses";

/** The merchant's or staff's procedure (use-reconciliation.ts), submitted once per form submission. */
type Submitting<TOutput> = UseMutationOptions<TOutput, Error, { idempotencyKey: string; input: Record<string, unknown> }>;

/** One report: its summary, its lines by status a page at a time, resolving one or all matched, export. */
export function ReportView({ merchantId, id }: { merchantId?: string; id: string }) {
  const api = useReconciliationApi(merchantId);
  const [status, setStatus] = useState<LineStatus | undefined>(undefined);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors.at(-1);
  const report = useQuery({ ...api.get({ id, status, cursor }), placeholderData: keepPreviousData });
  const [message, setMessage] = useState<string | null>(null);
  const resolveMatched = useSubmission({
    ...api.resolveMatched(),
    onSuccess: async (result: { resolved: number }) => {
      setMessage(`${result.resolved} matched payment(s) marked reconciled.`);
      await api.invalidate();
    },
  } as Submitting<{ resolved: number }>);

  function bulk(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setMessage(null);
    const note = String(new FormData(event.currentTarget).get("note") ?? "").trim();
    void resolveMatched.submit({ ...api.scope, id, note });
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
                  <dt>{statusLabel("reconciliationLine", name)}</dt>
                  <dd data-testid={`summary-${name}`}>{data.summary[name]}</dd>
                </div>
              ))}
            </dl>
            {api.mayResolveMatched ? (
              <form className="form-row" onSubmit={bulk} data-procedure={api.resolvePaths[1]}>
                <div className="field">
                  <label htmlFor="bulk-note">Note for all matched lines</label>
                  <input id="bulk-note" name="note" required maxLength={2000} />
                </div>
                <button type="submit" className="btn btn-primary" disabled={resolveMatched.pending}>
                  Mark all matched reconciled
                </button>
              </form>
            ) : null}
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
                <StatusOptions kind="reconciliationLine" />
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

function LinesTable({ merchantId, id: reportId, lines }: { merchantId?: string; id: string; lines: LineView[] }) {
  return (
    <TableWrap label="Report lines">
      <table className="table">
        <caption className="visually-hidden">Report lines</caption>
        <thead>
          <tr>
            <th scope="col" className="num">Line</th>
            <th scope="col">Status</th>
            <th scope="col">External id / reference</th>
            <th scope="col" className="num">File amount</th>
            <th scope="col" className="num">Ledger amount</th>
            <th scope="col">Currency</th>
            <th scope="col">Resolution</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => {
            const id = line.externalId ?? line.reference;
            return (
              <tr key={line.position} data-status={line.status}>
                <td className="num">{line.lineNumber ?? "—"}</td>
                <td className="wrap">
                  <StatusBadge kind="reconciliationLine" status={line.status} />
                  {line.reason ? <div className="field-hint">{line.reason}</div> : null}
                </td>
                <td>{id ? <LongValue value={id} what={line.externalId ? "external id" : "reference"} width={22} /> : "—"}</td>
                <td className="num">{line.fileAmount ?? "—"}</td>
                <td className="num">{line.ledgerAmount ?? "—"}</td>
                <td>{line.currency ?? "—"}</td>
                <td>
                  {line.resolvedAt ? (
                    <LongValue value={line.resolutionNote ?? ""} what="note" width={24} />
                  ) : line.paymentId ? (
                    <ResolveLine merchantId={merchantId} id={id ?? ""} reportId={reportId} position={line.position} />
                  ) : (
                    "—"
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** A note and Resolve, in one line of the table: the input is as wide as the column allows. */
function ResolveLine({ merchantId, id, reportId, position }: { merchantId?: string; id: string; reportId: string; position: number }) {
  const api = useReconciliationApi(merchantId);
  const resolve = useSubmission({ ...api.resolveLine(), onSuccess: () => api.invalidate() } as Submitting<unknown>);
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const note = String(new FormData(event.currentTarget).get("note") ?? "").trim();
    void resolve.submit({ ...api.scope, id: reportId, position, note });
  }
  if (!api.mayResolve) return null;
  return (
    <form className="resolve-line" onSubmit={submit} data-procedure={api.resolvePaths[0]}>
      <label className="visually-hidden" htmlFor={`note-${position}`}>
        Note for line {position}{id ? ` (${id})` : ""}
      </label>
      <input id={`note-${position}`} name="note" required maxLength={2000} placeholder="Note" size={12} />
      <button type="submit" className="btn btn-small" disabled={resolve.pending}>
        Resolve
      </button>
      {resolve.error ? <span role="alert" className="field-error">{resolve.error.message}</span> : null}
    </form>
  );
}
