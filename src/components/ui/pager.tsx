"use client";

export function Pager({
  pageNumber,
  hasMore,
  nextCursor,
  onNext,
  onPrevious,
  busy,
}: {
  pageNumber: number;
  hasMore: boolean;
  nextCursor: string | null;
  onNext: (cursor: string) => void;
  onPrevious: () => void;
  busy?: boolean;
}) {
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" className="btn btn-small" onClick={onPrevious} disabled={pageNumber === 1 || busy}>
        Previous page
      </button>
      <span className="muted" aria-live="polite">
        Page {pageNumber}
      </span>
      <button
        type="button"
        className="btn btn-small"
        onClick={() => nextCursor && onNext(nextCursor)}
        disabled={!hasMore || !nextCursor || busy}
      >
        Next page
      </button>
    </nav>
  );
}
