"use client";

import { useEffect, useState, type ReactNode } from "react";

/** After this long, a load that has not finished offers to start again (a stalled request never ends on its own). */
const SLOW_MS = 8_000;

export function Loading({ what, retry }: { what: string; retry?: () => unknown }) {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (!retry) return;
    const timer = setTimeout(() => setSlow(true), SLOW_MS);
    return () => clearTimeout(timer);
  }, [retry]);
  return (
    <p className="state" role="status">
      Loading {what}…
      {slow && retry ? (
        <>
          {" "}
          Still waiting.{" "}
          <button type="button" className="btn btn-small" onClick={() => retry()}>
            Try again
          </button>
        </>
      ) : null}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="state">{children}</p>;
}

/** An error in words: the server's message when it has one, otherwise a plain sentence; and a way to try again. */
export function ErrorMessage({ error, what, retry }: { error: unknown; what: string; retry?: () => unknown }) {
  const message = error instanceof Error && error.message ? error.message : "Something went wrong.";
  return (
    <div className="alert alert-error alert-with-action" role="alert">
      <p>
        Could not load {what}: {message}
      </p>
      {retry ? (
        <button type="button" className="btn btn-small" onClick={() => retry()}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

/** What QueryView reads of a TanStack query result. */
interface QueryState<T> {
  isPending: boolean;
  /** TanStack's refetch: offered as "Try again" on an error, and on a load that takes too long. */
  refetch?: () => unknown;
  isError: boolean;
  error: unknown;
  data: T | undefined;
}

/** A page of items as the list procedures return it. */
const isEmptyPage = (data: unknown) => {
  const items = (data as { data?: unknown } | null)?.data;
  return Array.isArray(items) && items.length === 0;
};

/**
 * A query's states, shown alike on every page: loading, then the error in words, or `empty` when `isEmpty(data)`
 * (default: a page with no items) and `empty` is given, or else `children(data)`. The error wins over data kept
 * from an earlier fetch (`placeholderData`), so a failed refetch is never shown as current.
 */
export function QueryView<T>({
  query,
  what,
  empty,
  isEmpty = isEmptyPage,
  children,
}: {
  query: QueryState<T>;
  what: string;
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading what={what} retry={query.refetch} />;
  if (query.isError) return <ErrorMessage error={query.error} what={what} retry={query.refetch} />;
  const data = query.data as T;
  if (empty !== undefined && isEmpty(data)) return <Empty>{empty}</Empty>;
  return <>{children(data)}</>;
}
