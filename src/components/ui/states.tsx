import type { ReactNode } from "react";

export function Loading({ what }: { what: string }) {
  return (
    <p className="state" role="status">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="state">{children}</p>;
}

/** An error in words: the server's message when it has one, otherwise a plain sentence. */
export function ErrorMessage({ error, what }: { error: unknown; what: string }) {
  const message = error instanceof Error && error.message ? error.message : "Something went wrong.";
  return (
    <p className="alert alert-error" role="alert">
      Could not load {what}: {message}
    </p>
  );
}

/** What QueryView reads of a TanStack query result. */
interface QueryState<T> {
  isPending: boolean;
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
  if (query.isPending) return <Loading what={what} />;
  if (query.isError) return <ErrorMessage error={query.error} what={what} />;
  const data = query.data as T;
  if (empty !== undefined && isEmpty(data)) return <Empty>{empty}</Empty>;
  return <>{children(data)}</>;
}
