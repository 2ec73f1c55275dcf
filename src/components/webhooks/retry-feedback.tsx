/** What a retry did: the success notice (a polite live region) and the failure (an alert), either or none. */
export function RetryFeedback({ notice, error }: { notice: string | null; error: { message: string } | null }) {
  return (
    <>
      {notice ? (
        <p className="alert alert-success" role="status">
          {notice}
        </p>
      ) : null}
      {error ? (
        <p className="alert alert-error" role="alert">
          Could not retry: {error.message}
        </p>
      ) : null}
    </>
  );
}
