"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/lib/trpc/client";

/** Mark a payment reconciled with a note (again: replaces the note), or clear a wrong reconciliation. */
export function ReconcileForm({ paymentId, reconciled }: { paymentId: string; reconciled: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<string | null>(null);
  const onSuccess = async (text: string) => {
    setMessage(text);
    await queryClient.invalidateQueries({ queryKey: trpc.payments.staff.pathKey() });
  };
  const mark = useMutation(trpc.payments.staff.markReconciled.mutationOptions({ onSuccess: () => onSuccess("Marked reconciled.") }));
  const clear = useMutation(trpc.payments.staff.clearReconciliation.mutationOptions({ onSuccess: () => onSuccess("Reconciliation cleared.") }));
  const error = mark.error ?? clear.error;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setMessage(null);
    mark.mutate({ paymentId, note: String(new FormData(event.currentTarget).get("note") ?? "").trim() });
  }

  return (
    <section className="card" aria-labelledby="reconcile-heading">
      <h2 id="reconcile-heading">Reconciliation</h2>
      <form className="form" onSubmit={submit}>
        <div className="field">
          <label htmlFor="reconcile-note">Note</label>
          <textarea id="reconcile-note" name="note" required maxLength={2000} aria-describedby="reconcile-hint" />
          <p id="reconcile-hint" className="field-hint">
            What it was matched against (bank statement line, transaction hash). Written to the audit log.
          </p>
        </div>
        <div className="form-row">
          <button type="submit" className="btn btn-primary" disabled={mark.isPending}>
            {mark.isPending ? "Saving…" : reconciled ? "Update note and mark reconciled" : "Mark reconciled"}
          </button>
          {reconciled ? (
            <button type="button" className="btn btn-danger" disabled={clear.isPending} onClick={() => clear.mutate({ paymentId })}>
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
