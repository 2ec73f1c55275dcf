"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback } from "react";

/**
 * A page's filters and windows live in its URL: a reload, a shared link or Back shows the same view. `update`
 * pushes a history entry (so Back undoes a filter) with the given params set, or removed when undefined or "".
 */
export function useUrlParams() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const update = useCallback(
    (changes: Record<string, string | undefined>, { replaceAll = false } = {}) => {
      const next = new URLSearchParams(replaceAll ? "" : params.toString());
      for (const [name, value] of Object.entries(changes)) {
        if (value) next.set(name, value);
        else next.delete(name);
      }
      const query = next.toString();
      router.push(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [params, pathname, router],
  );
  return { params, update };
}
