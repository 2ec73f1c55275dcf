"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { statusLabel } from "@/lib/statuses";
import { PaymentHistory } from "@/components/payments/payment-history";
import { PaymentsTable } from "@/components/payments/payments-table";
import { QueryView } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { usePermissions } from "@/components/shell/use-permissions";
import { InvoiceDetails } from "./invoice-details";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

/** One invoice: its details, payments, events with their deliveries, and void. */
export function InvoiceDetailView({ id }: { id: string }) {
  const trpc = useTRPC();
  const refreshAfterWrite = useRefreshAfterWrite();
  const { mayCall } = usePermissions();
  const invoice = useQuery(trpc.invoices.get.queryOptions({ id }, { retry: false }));
  const history = useQuery(trpc.events.forSubject.queryOptions({ subjectId: id }, { enabled: invoice.isSuccess }));
  const voiding = useMutation(
    trpc.invoices.void.mutationOptions({
      onSuccess: async () => {
        await refreshAfterWrite(trpc.invoices.pathKey(), trpc.events.pathKey());
      },
    }),
  );
  return (
    <>
      <p>
        <Link href="/dashboard/invoices">← All invoices</Link>
      </p>
      <div className="page-header">
        <h1>
          Invoice <code>{id}</code>
        </h1>
        {invoice.data && (invoice.data.status === "open" || invoice.data.status === "expired") && mayCall("invoices.void") ? (
          <ConfirmAction
            label="Void invoice…"
            procedure="invoices.void"
            question="Void this invoice? Its checkout page stops accepting payments."
            confirmLabel="Yes, void"
            busyLabel="Voiding…"
            busy={voiding.isPending}
            small={false}
            onConfirm={() => voiding.mutateAsync({ id })}
          />
        ) : null}
      </div>
      {voiding.error ? (
        <p className="alert alert-error" role="alert">
          {voiding.error.message}
        </p>
      ) : null}
      <QueryView query={invoice} what="the invoice">
        {(details) => (
          <>
            <InvoiceDetails invoice={details} />
            <section className="card" aria-labelledby="invoice-payments-heading">
              <h2 id="invoice-payments-heading">Payments</h2>
              {details.payments.length === 0 ? (
                <p className="muted">No payments attached. Record one with POST /api/v1/payment/confirm and this invoice&apos;s id as invoiceId.</p>
              ) : (
                <>
                  <PaymentsTable payments={details.payments} detailHref={(payment) => `/dashboard/payments/${payment.id}`} caption="Payments attached to this invoice" />
                  <ul className="inline-list" aria-label="Refund a payment of this invoice">
                    {details.payments
                      .filter((payment) => payment.status === "confirmed")
                      .map((payment) => (
                        <li key={payment.id}>
                          <Link className="btn btn-small" href={`/dashboard/payments/${payment.id}?refund=1`}>
                            Refund {payment.externalId}
                          </Link>{" "}
                          <span className="muted">({statusLabel("paymentRefund", payment.refundStatus)})</span>
                        </li>
                      ))}
                  </ul>
                </>
              )}
            </section>
            <QueryView query={history} what="events">
              {(events) => <PaymentHistory events={events.data} deliveryHref={(deliveryId) => `/dashboard/webhooks/deliveries/${deliveryId}`} />}
            </QueryView>
          </>
        )}
      </QueryView>
    </>
  );
}
