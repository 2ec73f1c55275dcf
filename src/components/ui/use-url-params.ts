"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useCallback } from "react";

/**
 * A page's filters and windows live in its URL: a reload, a shared link or Back shows the same view. `update`
 * pushes a history entry (so Back undoes a filter) with the given params set, or removed when undefined or "".
 *
 * The entry is pushed with the browser's own `history.pushState`, which Next.js's router adopts (usePathname and
 * useSearchParams follow it), not with `router.push`: these filters are read by the page's client queries, never
 * by its server component, so a router navigation only fetched the same server render again, and a link clicked
 * while that fetch was in flight could go unanswered (a CI run saw a search result's link not open in 10 s).
 */
export function useUrlParams() {
  const params = useSearchParams();
  const pathname = usePathname();
  const update = useCallback(
    (changes: Record<string, string | undefined>, { replaceAll = false } = {}) => {
      const next = new URLSearchParams(replaceAll ? "" : params.toString());
      for (const [name, value] of Object.entries(changes)) {
        if (value) next.set(name, value);
        else next.delete(name);
      }
      const query = next.toString();
      window.history.pushState(null, "", query ? `${pathname}?${query}` : pathname);
    },
    [params, pathname],
  );
  return { params, update };
}

/**
 * A list page's filters as its URL holds them: `current` (the URL's values of `names`, for the filter form), the
 * list's `filters` derived from them, whether any is set, a `key` that changes with them (remounting the form and
 * the results), and `apply`, which replaces them all (Back undoes it).
 */
export function useUrlFilters<Name extends string, Filters extends object>(
  names: readonly Name[],
  toFilters: (current: Partial<Record<Name, string>>) => Filters,
) {
  const { params, update } = useUrlParams();
  const current = Object.fromEntries(names.flatMap((name) => (params.get(name) ? [[name, params.get(name)!]] : []))) as Partial<Record<Name, string>>;
  const filters = toFilters(current);
  return {
    current,
    filters,
    filtered: Object.values(filters).some(Boolean),
    key: new URLSearchParams(current as Record<string, string>).toString(),
    apply: (next: Partial<Record<Name, string>>) => update(next, { replaceAll: true }),
  };
}
