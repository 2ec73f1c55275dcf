"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { PaymentRefunds } from "@/components/refunds/payment-refunds";
import { QueryView } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { PaymentDetails } from "./payment-details";
import { PaymentHistory } from "./payment-history";
import { ReconcileForm } from "./reconcile-form";

/** `refundNow` (the invoice page's Refund link, `?refund=1`) opens the refund form at once. */
export function PaymentDetailView({ id, refundNow = false }: { id: string; refundNow?: boolean }) {
  const trpc = useTRPC();
  const payment = useQuery(trpc.payments.get.queryOptions({ id }, { retry: false }));
  const reconciliation = useQuery(trpc.payments.reconciliation.queryOptions({ id }, { enabled: payment.isSuccess }));
  const history = useQuery(trpc.events.forSubject.queryOptions({ subjectId: id }, { enabled: payment.isSuccess }));
  return (
    <>
      <p>
        <Link href="/dashboard/payments">← All payments</Link>
      </p>
      <div className="page-header">
        <h1>
          Payment <code>{id}</code>
        </h1>
      </div>
      <QueryView query={payment} what="the payment">
        {(details) => (
          <>
            <PaymentDetails payment={{ ...details, reconciliationNote: reconciliation.data?.note ?? null, reconciledBy: reconciliation.data?.reconciledBy ?? null }} />
            <PaymentRefunds payment={details} startOpen={refundNow} />
            <ReconcileForm paymentId={details.id} reconciled={details.reconciledAt !== null} as="merchant" />
            <QueryView query={history} what="events">
              {(events) => <PaymentHistory events={events.data} deliveryHref={(deliveryId) => `/dashboard/webhooks/deliveries/${deliveryId}`} />}
            </QueryView>
          </>
        )}
      </QueryView>
    </>
  );
}
