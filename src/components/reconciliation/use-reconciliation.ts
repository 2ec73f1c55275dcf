"use client";

import { useTRPC } from "@/lib/trpc/client";
import { usePermissions } from "@/components/shell/use-permissions";
import type { StatusOf } from "@/lib/statuses";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

/**
 * The reconciliation procedures for whoever is signed in: a merchant's own (no `merchantId`), or support
 * staff's for the merchant they chose. One set of options, so the components are the same for both.
 */
export function useReconciliationApi(merchantId: string | undefined) {
  const trpc = useTRPC();
  const refreshAfterWrite = useRefreshAfterWrite();
  const forStaff = merchantId !== undefined;
  const scope = forStaff ? { merchantId } : {};
  const routes = trpc.reconciliation;
  const { can, mayCall } = usePermissions();
  return {
    /** May this reader resolve lines (the procedure's own permission)? */
    mayResolve: mayCall(forStaff ? "reconciliation.staff.resolveLine" : "reconciliation.resolveLine"),
    mayResolveMatched: mayCall(forStaff ? "reconciliation.staff.resolveMatched" : "reconciliation.resolveMatched"),
    resolvePaths: forStaff ? (["reconciliation.staff.resolveLine", "reconciliation.staff.resolveMatched"] as const) : (["reconciliation.resolveLine", "reconciliation.resolveMatched"] as const),
    /** The upload route's permission (auth/reconciliation-actor.ts, need "write"), by the reader's audience. */
    uploadPermission: forStaff ? ("staff.reconciliation.write" as const) : ("reconciliation.write" as const),
    mayUpload: can(forStaff ? "staff.reconciliation.write" : "reconciliation.write"),
    list: (cursor?: string) => (forStaff ? routes.staff.list.queryOptions({ merchantId, cursor, limit: 20 }) : routes.list.queryOptions({ cursor, limit: 20 })),
    get: (input: { id: string; status?: LineStatus; cursor?: string }) =>
      forStaff ? routes.staff.get.queryOptions({ merchantId, ...input }) : routes.get.queryOptions(input),
    mapping: () => (forStaff ? routes.staff.mapping.queryOptions({ merchantId }) : routes.mapping.queryOptions()),
    resolveLine: () => (forStaff ? routes.staff.resolveLine.mutationOptions() : routes.resolveLine.mutationOptions()),
    resolveMatched: () => (forStaff ? routes.staff.resolveMatched.mutationOptions() : routes.resolveMatched.mutationOptions()),
    scope,
    /** Upload and export go through route handlers (docs/reconciliation.md); staff name the merchant. */
    query: (params: Record<string, string | undefined>) => {
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries({ ...params, merchantId })) if (value) search.set(name, value);
      const text = search.toString();
      return text ? `?${text}` : "";
    },
    invalidate: () => refreshAfterWrite(routes.pathKey()),
  };
}

export { reconciliationLineStatuses as LINE_STATUSES } from "@/lib/statuses";
export type LineStatus = StatusOf<"reconciliationLine">;
export { SETTLEMENT_FIELDS as FIELDS } from "@/lib/settlement-file";
