"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Suspense, type FormEvent } from "react";
import { StatusBadge } from "@/components/ui/badge";
import { formatDate } from "@/components/ui/format";
import { Pager } from "@/components/ui/pager";
import { QueryView } from "@/components/ui/states";
import { TableWrap } from "@/components/ui/table-wrap";
import { useCursorPages } from "@/components/ui/use-cursor-pages";
import { useUrlParams } from "@/components/ui/use-url-params";
import { useTRPC } from "@/lib/trpc/client";

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
                    <th scope="col">Website</th>
                    <th scope="col">Signed up</th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((merchant) => (
                    <tr key={merchant.id}>
                      <td>
                        <Link href={`/dashboard/staff/merchants/${merchant.id}`}>{merchant.name}</Link>
                      </td>
                      <td>{merchant.email}</td>
                      <td>
                        <StatusBadge status={merchant.status} />
                      </td>
                      <td>{merchant.website ?? "—"}</td>
                      <td>{formatDate(merchant.createdAt)}</td>
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
