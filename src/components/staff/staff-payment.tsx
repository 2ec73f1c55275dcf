"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { PaymentDetails } from "@/components/payments/payment-details";
import { ReconcileForm } from "@/components/payments/reconcile-form";
import { RefundForm } from "@/components/refunds/refund-form";
import { remainingDecimal } from "@/lib/money";
import { QueryView } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { MerchantName, useStaffNames } from "./staff-names";

/** One payment of any merchant, for support staff, opened by its id (audit-logged as `payment.viewed`). */
export function StaffPayment({ id }: { id: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.payments.staff.get.queryOptions({ id }, { retry: false }));
  const names = useStaffNames({ merchantIds: [query.data?.merchantId], userIds: [query.data?.reconciledBy] });
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
        {(payment) => (
          <>
            <p>
              Merchant: <MerchantName id={payment.merchantId} names={names} />
            </p>
            <PaymentDetails payment={{ ...payment, reconciledBy: payment.reconciledBy ? (names.user(payment.reconciledBy)?.email ?? payment.reconciledBy) : null }} />
            <ReconcileForm paymentId={payment.id} reconciled={payment.reconciledAt !== null} as="staff" />
            {payment.status === "confirmed" ? (
              <section className="card" aria-labelledby="staff-refund-heading">
                <h2 id="staff-refund-heading">Refund for the merchant</h2>
                <p className="muted">Records a refund on the merchant&apos;s behalf, with a required note; written to the audit log.</p>
                <RefundForm payment={payment} refundable={remainingDecimal(payment.amount, payment.amountRefunded)} as="staff" merchantId={payment.merchantId} />
              </section>
            ) : null}
          </>
        )}
      </QueryView>
    </>
  );
}
