"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Suspense } from "react";
import { StatusBadge, StatusOptions } from "@/components/ui/badge";
import { DayRangeFields, FilterForm } from "@/components/ui/filter-form";
import { LongValue } from "@/components/ui/long-value";
import { Pager } from "@/components/ui/pager";
import { QueryView } from "@/components/ui/states";
import { TableWrap } from "@/components/ui/table-wrap";
import { AuditClient, AuditDetails, AuditTarget } from "./audit-cells";
import { useCursorPages } from "@/components/ui/use-cursor-pages";
import { useUrlFilters } from "@/components/ui/use-url-params";
import { When } from "@/components/ui/when";
import { useTRPC } from "@/lib/trpc/client";
import { createdRangeOfDays } from "@/lib/day-range";
import { auditActorTypes } from "@/lib/statuses";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/router";

type Entry = inferRouterOutputs<AppRouter>["auditLog"]["list"]["data"][number];

const PAGE_SIZE = 50;
const URL_FILTERS = ["actor", "action", "from", "to"] as const;
type UrlFilters = Partial<Record<(typeof URL_FILTERS)[number], string>>;
/** The URL's filters as the list's input: days are whole UTC days, `to` included (lib/day-range.ts). */
function toListFilters(url: UrlFilters) {
  const { createdFrom, createdTo } = createdRangeOfDays(url.from, url.to);
  return { actor: url.actor?.trim() || undefined, action: url.action?.trim() || undefined, since: createdFrom, until: createdTo };
}

const FIELDS = [...URL_FILTERS, "actorId"] as const;

function Filters({ current, onApply }: { current: UrlFilters; onApply: (filters: UrlFilters) => void }) {
  const kindSelected = (auditActorTypes as readonly string[]).includes(current.actor ?? "") ? current.actor : "";
  return (
    // The actor is one filter: a kind from the list, or an id typed beside it.
    <FilterForm label="Filter the audit log" names={FIELDS} onApply={({ actorId, ...values }) => onApply({ ...values, actor: actorId ?? values.actor })}>
      <div className="field">
        <label htmlFor="audit-filter-actor">Actor</label>
        <select id="audit-filter-actor" name="actor" defaultValue={kindSelected}>
          <option value="">Anyone</option>
          <StatusOptions kind="auditActor" />
        </select>
      </div>
      <div className="field">
        <label htmlFor="audit-filter-actor-id">Or actor id</label>
        <input id="audit-filter-actor-id" name="actorId" defaultValue={kindSelected ? "" : current.actor} placeholder="usr_… or key_…" />
      </div>
      <div className="field">
        <label htmlFor="audit-filter-action">Action</label>
        <input id="audit-filter-action" name="action" defaultValue={current.action} placeholder="api_key.* or merchant.updated" />
      </div>
      <DayRangeFields idPrefix="audit-filter" from={current.from} to={current.to} />
    </FilterForm>
  );
}

function EntriesTable({ entries }: { entries: Entry[] }) {
  return (
    <TableWrap label="Audit log entries">
      <table className="table">
        <caption className="visually-hidden">Audit log entries, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Actor</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">What changed</th>
            <th scope="col">From</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>
                <When value={entry.createdAt} seconds />
              </td>
              <td>
                <span className="stack">
                  <StatusBadge kind="auditActor" status={entry.actorType} />
                  {entry.actorId ? <LongValue value={entry.actorId} what="actor id" code width={14} /> : null}
                </span>
              </td>
              <td className="wrap">
                <code>{entry.action}</code>
              </td>
              <td>
                <AuditTarget entry={entry} width={14} />
              </td>
              <td>
                <AuditDetails entry={entry} width={28} />
              </td>
              <td>
                <AuditClient entry={entry} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

function Results({ filters, filtered }: { filters: ReturnType<typeof toListFilters>; filtered: boolean }) {
  const trpc = useTRPC();
  const pages = useCursorPages();
  const query = useQuery({ ...trpc.auditLog.list.queryOptions({ ...filters, cursor: pages.cursor, limit: PAGE_SIZE }), placeholderData: keepPreviousData });
  return (
    <QueryView
      query={query}
      what="the audit log"
      empty={
        filtered ? (
          <>
            No entries match these filters. <Link href="/dashboard/audit">Show all entries</Link>.
          </>
        ) : (
          "No changes recorded yet."
        )
      }
    >
      {(page) => (
        <>
          <EntriesTable entries={page.data} />
          <Pager pages={pages} page={page} busy={query.isFetching} />
        </>
      )}
    </QueryView>
  );
}

function MerchantAuditLogContent() {
  const { current, filters, filtered, key, apply } = useUrlFilters(URL_FILTERS, toListFilters);
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Audit log</h1>
          <p>
            Every change to your account by your team, your API keys and support staff, newest first, with where it came from. The entries form a
            hash chain: an altered or removed entry is found by <code>npm run audit:verify</code>. Export with <code>GET /api/v1/audit-log</code>.
          </p>
        </div>
      </div>
      <Filters key={key} current={current} onApply={apply} />
      <Results key={key} filters={filters} filtered={filtered} />
    </>
  );
}

/** The signed-in merchant's audit log: filters in the URL, cursor pages. */
export function MerchantAuditLog() {
  return (
    <Suspense>
      <MerchantAuditLogContent />
    </Suspense>
  );
}
