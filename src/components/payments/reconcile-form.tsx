"use client";

import { useMutation } from "@tanstack/react-query";
import { useSubmission } from "@/components/ui/use-submission";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { usePermissions } from "@/components/shell/use-permissions";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

/**
 * Mark a payment reconciled with a note (again: replaces the note), or clear a wrong reconciliation. The
 * merchant's own users (`as="merchant"`) and support staff use the same verbs; both are audit-logged.
 */
export function ReconcileForm({ paymentId, reconciled, as }: { paymentId: string; reconciled: boolean; as: "merchant" | "staff" }) {
  const trpc = useTRPC();
  const refreshAfterWrite = useRefreshAfterWrite();
  const [message, setMessage] = useState<string | null>(null);
  const onSuccess = async (text: string) => {
    setMessage(text);
    await refreshAfterWrite(trpc.payments.pathKey());
  };
  const marked = { onSuccess: () => onSuccess("Marked reconciled.") };
  // After a clear, marking again (even with the same note) is a new submission, not the first one's replay.
  const cleared = { onSuccess: () => (staffMark.startOver(), ownMark.startOver(), onSuccess("Reconciliation cleared.")) };
  // Both pairs exist (hooks are not called conditionally); `as` picks the one this reader may use. Marking goes
  // once per submission (a double click marks once).
  const staffMark = useSubmission(trpc.payments.staff.markReconciled.mutationOptions(marked));
  const staffClear = useMutation(trpc.payments.staff.clearReconciliation.mutationOptions(cleared));
  const ownMark = useSubmission(trpc.payments.markReconciled.mutationOptions(marked));
  const ownClear = useMutation(trpc.payments.clearReconciliation.mutationOptions(cleared));
  const [mark, clear] = as === "staff" ? [staffMark, staffClear] : [ownMark, ownClear];
  const error = mark.error ?? clear.error;
  const { mayCall } = usePermissions();
  const [markPath, clearPath] = as === "staff" ? (["payments.staff.markReconciled", "payments.staff.clearReconciliation"] as const) : (["payments.markReconciled", "payments.clearReconciliation"] as const);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setMessage(null);
    void mark.submit({ paymentId, note: String(new FormData(event.currentTarget).get("note") ?? "").trim() });
  }

  if (!mayCall(markPath)) return null;
  return (
    <section className="card" aria-labelledby="reconcile-heading">
      <h2 id="reconcile-heading">Reconciliation</h2>
      <form className="form" onSubmit={submit} data-procedure={markPath}>
        <div className="field">
          <label htmlFor="reconcile-note">Note</label>
          <textarea id="reconcile-note" name="note" required maxLength={2000} aria-describedby="reconcile-hint" />
          <p id="reconcile-hint" className="field-hint">
            Reconciled means checked against your bank statement or the chain: what it was matched against (statement line, transaction
            hash). Written to the audit log with who did it.
          </p>
        </div>
        <div className="form-row">
          <button type="submit" className="btn btn-primary" disabled={mark.pending}>
            {mark.pending ? "Saving…" : reconciled ? "Update note and mark reconciled" : "Mark reconciled"}
          </button>
          {reconciled && mayCall(clearPath) ? (
            <button type="button" className="btn btn-danger" data-procedure={clearPath} disabled={clear.isPending} onClick={() => clear.mutate({ paymentId })}>
              Clear reconciliation
            </button>
          ) : null}
        </div>
        {message ? (
          <p className="alert alert-success" role="status">
            {message}
          </p>
        ) : null}
        {error ? (
          <p className="alert alert-error" role="alert">
            {error.message}
          </p>
        ) : null}
      </form>
    </section>
  );
}
