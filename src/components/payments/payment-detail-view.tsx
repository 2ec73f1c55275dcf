"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { ErrorMessage, Loading } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { PaymentDetails } from "./payment-details";
import { PaymentHistory } from "./payment-history";

export function PaymentDetailView({ id }: { id: string }) {
  const trpc = useTRPC();
  const payment = useQuery(trpc.payments.get.queryOptions({ id }, { retry: false }));
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
      {payment.isPending ? (
        <Loading what="the payment" />
      ) : payment.isError ? (
        <ErrorMessage error={payment.error} what="the payment" />
      ) : (
        <>
          <PaymentDetails payment={payment.data} />
          {history.isPending ? (
            <Loading what="events" />
          ) : history.isError ? (
            <ErrorMessage error={history.error} what="events" />
          ) : (
            <PaymentHistory events={history.data.data} deliveryHref={(deliveryId) => `/dashboard/webhooks/deliveries/${deliveryId}`} />
          )}
        </>
      )}
    </>
  );
}
