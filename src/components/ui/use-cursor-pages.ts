"use client";

import { useCallback, useState } from "react";

/**
 * Cursor paging for `{data, hasMore, nextCursor}` lists: the cursors of the pages already seen are kept,
 * so "Previous" goes back without offsets.
 */
export function useCursorPages() {
  const [stack, setStack] = useState<string[]>([]);
  const cursor = stack.at(-1);
  return {
    cursor,
    pageNumber: stack.length + 1,
    next: useCallback((nextCursor: string) => setStack((pages) => [...pages, nextCursor]), []),
    previous: useCallback(() => setStack((pages) => pages.slice(0, -1)), []),
    reset: useCallback(() => setStack([]), []),
  };
}

export type CursorPages = ReturnType<typeof useCursorPages>;
