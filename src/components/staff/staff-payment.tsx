"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { PaymentDetails } from "@/components/payments/payment-details";
import { QueryView } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { ReconcileForm } from "./reconcile-form";

/** One payment of any merchant, for support staff, found by its id (the search is audit-logged). */
export function StaffPayment({ id }: { id: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.payments.staff.search.queryOptions({ query: id }));
  return (
    <>
      <p>
        <Link href="/dashboard/staff">← Payment search</Link>
      </p>
      <div className="page-header">
        <h1>
          Payment <code>{id}</code>
        </h1>
      </div>
      <QueryView query={query} what="the payment">
        {(results) => {
          const payment = results.data.find((candidate) => candidate.id === id);
          if (!payment) {
            return (
              <p className="alert alert-error" role="alert">
                No payment has the id {id}.
              </p>
            );
          }
          return (
            <>
              <p>
                Merchant: <Link href={`/dashboard/staff/merchants/${payment.merchantId}`}>{payment.merchantId}</Link>
              </p>
              <PaymentDetails payment={payment} />
              <ReconcileForm paymentId={payment.id} reconciled={payment.reconciledAt !== null} />
            </>
          );
        }}
      </QueryView>
    </>
  );
}
