"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";

/**
 * The merchant switcher (docs/team-and-security.md, "Switching merchants"): shown to a person in more than one
 * team. Switching makes the session act for the chosen merchant, then reloads the dashboard with their role there.
 */
export function MerchantSwitcher() {
  const trpc = useTRPC();
  const list = useQuery(trpc.account.memberships.queryOptions());
  const change = useMutation(trpc.account.switchMerchant.mutationOptions({ onSuccess: () => window.location.assign("/dashboard") }));
  if (!list.data || list.data.memberships.length < 2) return null;
  return (
    <label className="shell-switcher">
      <span className="visually-hidden">Merchant</span>
      <select
        aria-label="Merchant"
        value={list.data.current ?? ""}
        disabled={change.isPending}
        onChange={(event) => change.mutate({ merchantId: event.target.value })}
      >
        {list.data.memberships.map((membership) => (
          <option key={membership.merchantId} value={membership.merchantId}>
            {membership.name} ({membership.role})
          </option>
        ))}
      </select>
    </label>
  );
}
