"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { usePermissions } from "@/components/shell/use-permissions";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

/** Retry every failed delivery, in two steps: count them (dry run), then confirm that number. */
export function RetryAll({ onDone }: { onDone: (count: number) => void }) {
  const trpc = useTRPC();
  const refreshAfterWrite = useRefreshAfterWrite();
  const [counted, setCounted] = useState<number | null>(null);
  const count = useMutation(trpc.webhooks.retryFailed.mutationOptions({ onSuccess: (result) => setCounted(result.count) }));
  const retry = useMutation(
    trpc.webhooks.retryFailed.mutationOptions({
      onSuccess: async (result) => {
        setCounted(null);
        onDone(result.count);
        await refreshAfterWrite(trpc.webhooks.pathKey());
      },
    }),
  );
  const error = count.error ?? retry.error;
  if (!usePermissions().mayCall("webhooks.retryFailed")) return null;

  return (
    <div className="form-row" aria-live="polite" data-procedure="webhooks.retryFailed">
      {counted === null ? (
        <button type="button" className="btn" disabled={count.isPending} onClick={() => count.mutate({ dryRun: true })}>
          {count.isPending ? "Counting…" : "Retry all…"}
        </button>
      ) : counted === 0 ? (
        <>
          <span>There are no failed deliveries to retry.</span>
          <button type="button" className="btn btn-small" onClick={() => setCounted(null)}>
            OK
          </button>
        </>
      ) : (
        <>
          <span>
            {counted} failed deliver{counted === 1 ? "y" : "ies"} will be attempted again.
          </span>
          <button type="button" className="btn btn-primary" disabled={retry.isPending} onClick={() => retry.mutate({ dryRun: false })}>
            {retry.isPending ? "Queuing…" : `Retry ${counted}`}
          </button>
          <button type="button" className="btn" onClick={() => setCounted(null)}>
            Cancel
          </button>
        </>
      )}
      {error ? (
        <span className="field-error" role="alert">
          {error.message}
        </span>
      ) : null}
    </div>
  );
}
