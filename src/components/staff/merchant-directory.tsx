"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Suspense, type FormEvent } from "react";
import { StatusBadge } from "@/components/ui/badge";
import { Pager } from "@/components/ui/pager";
import { QueryView } from "@/components/ui/states";
import { TableWrap } from "@/components/ui/table-wrap";
import { useCursorPages } from "@/components/ui/use-cursor-pages";
import { useUrlParams } from "@/components/ui/use-url-params";
import { useTRPC } from "@/lib/trpc/client";
import { LongValue } from "@/components/ui/long-value";
import { When } from "@/components/ui/when";

/** The merchant directory: find a merchant by part of their name, email or id (`?q=` in the URL). */
function MerchantDirectoryContent() {
  const trpc = useTRPC();
  const { params, update } = useUrlParams();
  const term = (params.get("q") ?? "").trim();
  const pages = useCursorPages();
  const query = useQuery({
    ...trpc.staff.merchants.queryOptions({ query: term || undefined, cursor: pages.cursor, limit: 50 }, { refetchOnWindowFocus: false }),
    placeholderData: keepPreviousData,
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    pages.reset();
    update({ q: String(new FormData(event.currentTarget).get("q") ?? "").trim() });
  }

  return (
    <>
      <form className="card form-row" role="search" onSubmit={submit} key={term}>
        <div className="field" style={{ flex: "1 1 16rem" }}>
          <label htmlFor="merchant-search">Name, email or id</label>
          <input id="merchant-search" name="q" defaultValue={term} placeholder="Part of a name, email or mer_… id" />
        </div>
        <button type="submit" className="btn btn-primary">
          Find
        </button>
      </form>
      <QueryView query={query} what="merchants" empty={term ? <>No merchant matches “{term}”.</> : "No merchants have signed up yet."}>
        {(page) => (
          <>
            <TableWrap label="Merchants">
              <table className="table">
                <caption className="visually-hidden">Merchants, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Email</th>
                    <th scope="col">Status</th>
                    <th scope="col" className="col-spare">Website</th>
                    <th scope="col">Signed up</th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((merchant) => (
                    <tr key={merchant.id}>
                      <td>
                        <LongValue value={merchant.name} what="merchant name" href={`/dashboard/staff/merchants/${merchant.id}`} width={28} />
                      </td>
                      <td>
                        <LongValue value={merchant.email} what="email" width={28} />
                      </td>
                      <td>
                        <StatusBadge kind="merchant" status={merchant.status} />
                      </td>
                      <td className="col-spare">{merchant.website ? <LongValue value={merchant.website} what="website" width={24} /> : "—"}</td>
                      <td>
                        <When value={merchant.createdAt} />
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

export function MerchantDirectory() {
  return (
    <Suspense>
      <MerchantDirectoryContent />
    </Suspense>
  );
}
