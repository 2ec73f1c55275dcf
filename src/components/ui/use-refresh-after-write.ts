"use client";

import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useCallback } from "react";

/**
 * What every dashboard write does when it lands: each query under the given keys is read again, and no answer read
 * before the write is kept (docs/dashboard.md, "After a write").
 *
 * `invalidateQueries` alone misses one case: a query whose first fetch is still on its way (the page has just
 * opened) is not fetched again. TanStack Query hands back that fetch's promise instead, since it cancels a fetch in
 * flight only once the query has data, and the list then shows what it read before the write: "Invoice created"
 * above "No invoices yet". Cancelling first drops that fetch, so the invalidation starts a new one.
 */
export function useRefreshAfterWrite(): (...queryKeys: QueryKey[]) => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(
    async (...queryKeys: QueryKey[]) => {
      await Promise.all(queryKeys.map((queryKey) => queryClient.cancelQueries({ queryKey })));
      await Promise.all(queryKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
    [queryClient],
  );
}
