"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatDateTime } from "@/components/ui/format";
import { QueryView } from "@/components/ui/states";
import { TableWrap } from "@/components/ui/table-wrap";
import { ReportView } from "./report-view";
import { UploadForm } from "./upload-form";
import { useReconciliationApi } from "./use-reconciliation";
import { reconciliationLineStatuses, statusLabel } from "@/lib/statuses";

/** Reconciliation for a merchant (their own) or for support staff (`merchantId` chosen): upload, reports. */
export function ReconciliationPage({ merchantId }: { merchantId?: string }) {
  const api = useReconciliationApi(merchantId);
  const [selected, setSelected] = useState<string | null>(null);
  const reports = useQuery({ ...api.list(), placeholderData: keepPreviousData });
  return (
    <>
      <div className="page-header">
        <h1>Reconciliation</h1>
      </div>
      <UploadForm merchantId={merchantId} onDone={setSelected} />
      {selected ? <ReportView key={selected} merchantId={merchantId} id={selected} /> : null}
      <section className="card" aria-labelledby="reports-heading">
        <h2 id="reports-heading">Past reports</h2>
        <QueryView query={reports} what="reports" empty="No reports yet: upload a settlement file.">
          {(page) => (
            <TableWrap label="Past reports">
              <table className="table">
                <caption className="visually-hidden">Past reports</caption>
                <thead>
                  <tr>
                    <th scope="col">Uploaded</th>
                    <th scope="col">Lines</th>
                    {reconciliationLineStatuses.map((status) => (
                      <th scope="col" key={status} className="num">
                        {statusLabel("reconciliationLine", status)}
                      </th>
                    ))}
                    {/* A short heading keeps the table within 1280 px; the three counts are named on hover. */}
                    <th scope="col">
                      <abbr title="Refunds matched / mismatched / missing">Refunds</abbr>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((report) => (
                    <tr key={report.id}>
                      <td>
                        <button type="button" className="btn-link" onClick={() => setSelected(report.id)}>
                          {formatDateTime(report.createdAt)}
                        </button>
                      </td>
                      <td>{report.fileLines}</td>
                      {reconciliationLineStatuses.map((status) => (
                        <td key={status} className="num">
                          {report.summary[status]}
                        </td>
                      ))}
                      <td>
                        {report.summary.refunds.matched} / {report.summary.refunds.mismatched} / {report.summary.refunds.missingInLedger}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          )}
        </QueryView>
      </section>
    </>
  );
}
