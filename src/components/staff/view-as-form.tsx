"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Field } from "@/components/ui/field";
import { usePermissions } from "@/components/shell/use-permissions";
import { useTRPC } from "@/lib/trpc/client";

/**
 * "View as merchant" on the staff console's page of a merchant (docs/team-and-security.md, "Viewing as a
 * merchant"): for staff holding `staff.view_as`, a required reason, then the merchant's own dashboard, read-only,
 * for at most an hour. The grant is the session's (`staff.startViewAs`), so the dashboard is loaded afresh.
 */
export function ViewAsForm({ merchantId, merchantName }: { merchantId: string; merchantName: string }) {
  const trpc = useTRPC();
  const { can } = usePermissions();
  const [missing, setMissing] = useState(false);
  const start = useMutation(trpc.staff.startViewAs.mutationOptions({ onSuccess: () => window.location.assign("/dashboard") }));
  if (!can("staff.view_as")) return null;

  const serverFieldError = ((start.error?.data as { errors?: { path: string; message: string }[] } | undefined)?.errors ?? []).find((error) =>
    error.path.endsWith("reason"),
  )?.message;
  const fieldError = missing ? "Give a reason (a ticket, the merchant's question): it is written to the merchant's audit log." : serverFieldError;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const reason = String(new FormData(event.currentTarget).get("reason") ?? "").trim();
    setMissing(reason === "");
    if (reason === "") return;
    start.mutate({ merchantId, reason });
  }

  return (
    <section className="card" aria-labelledby="view-as-heading">
      <h2 id="view-as-heading">View as merchant</h2>
      <form className="form" onSubmit={submit} noValidate>
        <Field
          id="view-as-reason"
          name="reason"
          label="Reason"
          aria-required="true"
          maxLength={500}
          autoComplete="off"
          hint={`Opens ${merchantName}'s dashboard as they see it, read-only, for at most an hour. The reason and every page you open go into their audit log.`}
          error={fieldError}
          onChange={() => setMissing(false)}
        />
        <div className="form-row">
          <button type="submit" className="btn btn-primary" disabled={start.isPending || start.isSuccess}>
            {start.isPending || start.isSuccess ? "Opening…" : "View as merchant"}
          </button>
        </div>
        {start.error && !serverFieldError ? (
          <p className="alert alert-error" role="alert">
            {start.error.message}
          </p>
        ) : null}
      </form>
    </section>
  );
}
