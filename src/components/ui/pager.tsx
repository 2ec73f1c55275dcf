"use client";

import type { CursorPages } from "./use-cursor-pages";

/** Previous / next for a cursor-paged list: `pages` from useCursorPages, `page` the list's current answer. */
export function Pager({
  pages,
  page,
  busy,
}: {
  pages: CursorPages;
  page: { hasMore: boolean; nextCursor: string | null };
  busy?: boolean;
}) {
  const { nextCursor } = page;
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" className="btn btn-small" onClick={pages.previous} disabled={pages.pageNumber === 1 || busy}>
        Previous page
      </button>
      <span className="muted" aria-live="polite">
        Page {pages.pageNumber}
      </span>
      <button
        type="button"
        className="btn btn-small"
        onClick={() => nextCursor && pages.next(nextCursor)}
        disabled={!page.hasMore || !nextCursor || busy}
      >
        Next page
      </button>
    </nav>
  );
}
