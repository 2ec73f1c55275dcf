"use client";

import { TableWrap } from "@/components/ui/table-wrap";
import { AuditClient, AuditDetails, AuditTarget } from "@/components/audit/audit-cells";
import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Pager } from "@/components/ui/pager";
import { QueryView } from "@/components/ui/states";
import { When } from "@/components/ui/when";
import { useCursorPages } from "@/components/ui/use-cursor-pages";
import { useTRPC } from "@/lib/trpc/client";
import { MerchantName, UserName, useStaffNames } from "./staff-names";

interface Filters {
  merchantId?: string;
  action?: string;
}

export function AuditLog({ initialMerchantId }: { initialMerchantId?: string }) {
  const trpc = useTRPC();
  const [filters, setFilters] = useState<Filters>({ merchantId: initialMerchantId });
  const pages = useCursorPages();
  const query = useQuery(trpc.staff.auditLog.queryOptions({ ...filters, cursor: pages.cursor, limit: 50 }));
  const names = useStaffNames({
    merchantIds: query.data?.data.map((entry) => entry.merchantId),
    userIds: query.data?.data.map((entry) => (entry.actorType === "staff" || entry.actorType === "user" ? entry.actorId : null)),
  });

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: string) => String(form.get(name) ?? "").trim() || undefined;
    setFilters({ merchantId: value("merchantId"), action: value("action") });
    pages.reset();
  }

  return (
    <>
      <form className="card form-row" onSubmit={apply} aria-label="Filter the audit log">
        <div className="field">
          <label htmlFor="audit-merchant">Merchant id</label>
          <input id="audit-merchant" name="merchantId" defaultValue={initialMerchantId} placeholder="mer_…" />
        </div>
        <div className="field">
          <label htmlFor="audit-action">Action</label>
          <input id="audit-action" name="action" placeholder="payment.reconciled" />
        </div>
        <button type="submit" className="btn btn-primary">
          Filter
        </button>
      </form>
      <QueryView query={query} what="the audit log" empty="No audit entries match these filters.">
        {(page) => (
          <>
            <TableWrap label="Audit log entries">
              <table className="table">
                <caption className="visually-hidden">Audit log entries, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Actor</th>
                    <th scope="col">Action</th>
                    <th scope="col">Merchant</th>
                    <th scope="col">Target</th>
                    <th scope="col">Details</th>
                    <th scope="col">From</th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((entry) => (
                    <tr key={entry.id}>
                      <td>
                        <When value={entry.createdAt} seconds />
                      </td>
                      <td>
                        <span className="who">
                          {entry.actorId && (entry.actorType === "staff" || entry.actorType === "user") ? (
                            <UserName id={entry.actorId} names={names} />
                          ) : entry.actorId ? (
                            <code title={entry.actorId}>{entry.actorId}</code>
                          ) : null}
                          <small className="muted">{entry.actorType}</small>
                        </span>
                      </td>
                      <td className="wrap">
                        <code>{entry.action}</code>
                      </td>
                      <td>{entry.merchantId ? <MerchantName id={entry.merchantId} names={names} /> : "—"}</td>
                      <td>
                        <AuditTarget entry={entry} width={16} />
                      </td>
                      <td>
                        <AuditDetails entry={entry} width={30} />
                      </td>
                      <td>
                        <AuditClient entry={entry} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
            <Pager pages={pages} page={page} busy={query.isFetching} />
          </>
        )}
      </QueryView>
    </>
  );
}
