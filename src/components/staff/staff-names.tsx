"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/lib/trpc/client";

/**
 * Names for the ids on a staff page (merchants' names and emails, users' emails), fetched in one call, so
 * the console shows people rather than `mer_…` and `usr_…`. Until they arrive (or for an id that no longer
 * exists) the id itself is shown.
 */
export function useStaffNames(ids: { merchantIds?: (string | null | undefined)[]; userIds?: (string | null | undefined)[] }) {
  const trpc = useTRPC();
  const clean = (list?: (string | null | undefined)[]) => [...new Set((list ?? []).filter((id): id is string => Boolean(id)))].sort().slice(0, 200);
  const input = { merchantIds: clean(ids.merchantIds), userIds: clean(ids.userIds) };
  const names = useQuery(
    trpc.staff.names.queryOptions(input, { enabled: input.merchantIds.length + input.userIds.length > 0, staleTime: 5 * 60_000 }),
  );
  return {
    merchant: (id: string) => names.data?.merchants[id],
    user: (id: string) => names.data?.users[id],
  };
}

export type StaffNamesLookup = ReturnType<typeof useStaffNames>;

/** A merchant as staff read it: the name (a link to the merchant's page) and the email under it. */
export function MerchantName({ id, names }: { id: string; names: StaffNamesLookup }) {
  const merchant = names.merchant(id);
  return (
    <span className="who">
      <Link href={`/dashboard/staff/merchants/${id}`}>{merchant?.name ?? id}</Link>
      {merchant ? <small className="muted">{merchant.email}</small> : null}
    </span>
  );
}

/** A user by email (or name), the id kept in the title for anyone who needs it. */
export function UserName({ id, names }: { id: string; names: StaffNamesLookup }) {
  const user = names.user(id);
  return <span title={id}>{user ? user.email : <code>{id}</code>}</span>;
}
