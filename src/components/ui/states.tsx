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
