"use client";

import { useSubmission } from "@/components/ui/use-submission";
import Link from "next/link";
import type { FormEvent } from "react";
import { Field } from "@/components/ui/field";
import { useTRPC } from "@/lib/trpc/client";
import { usePermissions } from "@/components/shell/use-permissions";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

/** Creates an invoice from the dashboard (the same verb as POST /invoice). */
export function CreateInvoiceForm() {
  const trpc = useTRPC();
  const refreshAfterWrite = useRefreshAfterWrite();
  // Once per submission: a double click, or the same values sent again, shows the invoice the first made.
  const create = useSubmission(
    trpc.invoices.create.mutationOptions({
      onSuccess: () => refreshAfterWrite(trpc.invoices.pathKey()),
    }),
  );
  const fieldErrors = Object.fromEntries(
    ((create.error?.data as { errors?: { path: string; message: string }[] } | undefined)?.errors ?? []).map((error) => [error.path.split(".").pop(), error.message]),
  );

  const mayCreate = usePermissions().mayCall("invoices.create");

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: string) => String(form.get(name) ?? "").trim();
    const minutes = Number(value("expiresInMinutes") || "60");
    void create.submit({
      amount: value("amount"),
      currency: value("currency"),
      orderId: value("orderId") || undefined,
      description: value("description") || undefined,
      returnUrl: value("returnUrl") || undefined,
      expiresIn: Math.round(minutes * 60),
    });
  }

  if (!mayCreate) return null;
  return (
    <form className="card form" onSubmit={submit} aria-labelledby="create-invoice-heading" data-procedure="invoices.create">
      <h2 id="create-invoice-heading">New invoice</h2>
      <div className="form-row">
        <Field id="invoice-amount" name="amount" label="Amount" required inputMode="decimal" placeholder="19.99" error={fieldErrors.amount} />
        <Field id="invoice-currency" name="currency" label="Currency" required size={6} placeholder="EUR" error={fieldErrors.currency} />
        <Field id="invoice-order" name="orderId" label="Order id" error={fieldErrors.orderId} />
        <Field id="invoice-expires" name="expiresInMinutes" label="Expires in (minutes)" type="number" min={1} max={43200} defaultValue={60} error={fieldErrors.expiresIn} />
      </div>
      <Field id="invoice-description" name="description" label="Description" error={fieldErrors.description} />
      <Field id="invoice-return" name="returnUrl" label="Return URL" type="url" error={fieldErrors.returnUrl} />
      <div>
        <button type="submit" className="btn btn-primary" disabled={create.pending}>
          {create.pending ? "Creating…" : "Create invoice"}
        </button>
      </div>
      {create.data ? (
        <p className="alert alert-success" role="status">
          Invoice <Link href={`/dashboard/invoices/${create.data.id}`}>{create.data.id}</Link> created. Checkout link:{" "}
          <a href={create.data.checkoutUrl}>{create.data.checkoutUrl}</a>
        </p>
      ) : null}
      {create.error ? (
        <p className="alert alert-error" role="alert">
          {create.error.message}
        </p>
      ) : null}
    </form>
  );
}
