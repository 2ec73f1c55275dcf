"use client";

import { formatMoney } from "@/lib/format-money";
import { useQuery } from "@tanstack/react-query";
import { useSubmission } from "@/components/ui/use-submission";
import { useState, type FormEvent } from "react";
import { InvoicesTable } from "@/components/invoices/invoices-table";
import { QueryView } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { statusLabel, type StatusOf } from "@/lib/statuses";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

/**
 * A merchant's latest invoices for support staff, and the two things staff may do to one: mark it paid (money
 * settled outside the service) or void it, each with a reason that goes to the audit log.
 */
export function StaffInvoices({ merchantId }: { merchantId: string }) {
  const trpc = useTRPC();
  const refreshAfterWrite = useRefreshAfterWrite();
  const invoices = useQuery(trpc.invoices.staff.list.queryOptions({ merchantId, limit: 20 }));
  const [done, setDone] = useState<string | null>(null);
  const options = {
    onSuccess: async (invoice: { id: string; status: StatusOf<"invoice"> }) => {
      setDone(`Invoice ${invoice.id} is now ${statusLabel("invoice", invoice.status)}.`);
      await refreshAfterWrite(trpc.invoices.pathKey());
    },
  };
  // Once per submission: a double click marks once and shows what the first did, not "invalid transition".
  const markPaid = useSubmission(trpc.invoices.staff.markPaid.mutationOptions(options));
  const markVoid = useSubmission(trpc.invoices.staff.markVoid.mutationOptions(options));
  const pending = markPaid.pending || markVoid.pending;
  const error = markPaid.error ?? markVoid.error;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(null);
    const form = new FormData(event.currentTarget);
    const input = { merchantId, invoiceId: String(form.get("invoiceId") ?? ""), reason: String(form.get("reason") ?? "").trim() };
    const action = (event.nativeEvent as SubmitEvent).submitter?.getAttribute("value");
    if (pending) return;
    if (action === "void") void markVoid.submit(input);
    else void markPaid.submit(input);
  }

  return (
    <section className="card" aria-labelledby="staff-invoices-heading">
      <h2 id="staff-invoices-heading">Invoices</h2>
      <QueryView query={invoices} what="invoices" empty="This merchant has no invoices.">
        {(page) => {
          const markable = page.data.filter((invoice) => invoice.status !== "paid" && invoice.status !== "void");
          return (
            <>
              <InvoicesTable invoices={page.data} detailHref={(invoice) => invoice.checkoutUrl} caption="The merchant's latest invoices" />
              {markable.length > 0 ? (
                <form className="form" onSubmit={submit} aria-labelledby="staff-invoice-action-heading">
                  <h3 id="staff-invoice-action-heading">Mark an invoice</h3>
                  <div className="field">
                    <label htmlFor="staff-invoice-id">Invoice</label>
                    <select id="staff-invoice-id" name="invoiceId" required>
                      {markable.map((invoice) => (
                        <option key={invoice.id} value={invoice.id}>
                          {invoice.id} · {formatMoney(invoice.amount, invoice.currency)} · {statusLabel("invoice", invoice.status)}
                        </option>
                      ))}
                    </select>
                  </div>
                  <div className="field">
                    <label htmlFor="staff-invoice-reason">Reason (kept in the audit log)</label>
                    <textarea id="staff-invoice-reason" name="reason" rows={2} required maxLength={2000} />
                  </div>
                  <div className="form-row">
                    <button type="submit" className="btn btn-primary" value="paid" disabled={pending}>
                      Mark paid
                    </button>
                    <button type="submit" className="btn" value="void" disabled={pending}>
                      Void
                    </button>
                  </div>
                </form>
              ) : null}
            </>
          );
        }}
      </QueryView>
      {done ? (
        <p className="alert alert-success" role="status">
          {done}
        </p>
      ) : null}
      {error ? (
        <p className="alert alert-error" role="alert">
          {error.message}
        </p>
      ) : null}
    </section>
  );
}
