"use client";

import { useQuery } from "@tanstack/react-query";
import { formatMoney } from "@/lib/format-money";
import { StatusBadge } from "@/components/ui/badge";
import { QueryView } from "@/components/ui/states";
import { useSubmission } from "@/components/ui/use-submission";
import { usePermissions } from "@/components/shell/use-permissions";
import { useTRPC } from "@/lib/trpc/client";
import type { PaymentView } from "@/components/payments/types";
import { refundableOf } from "./refund-amounts";
import { RefundForm } from "./refund-form";
import { RefundsTable } from "./refunds-table";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

/** A payment's refunds, their status, and the Refund action (docs/refunds.md); only a confirmed payment offers it. */
export function PaymentRefunds({
  payment,
  startOpen,
}: {
  payment: PaymentView;
  startOpen?: boolean;
}) {
  const trpc = useTRPC();
  const { mayCall } = usePermissions();
  const refreshAfterWrite = useRefreshAfterWrite();
  const refunds = useQuery(trpc.refunds.ofPayment.queryOptions({ paymentId: payment.id }));
  const onSuccess = async () => {
    await refreshAfterWrite(trpc.refunds.pathKey(), trpc.payments.pathKey());
  };
  const settle = useSubmission(trpc.refunds.update.mutationOptions({ onSuccess }));
  const cancel = useSubmission(trpc.refunds.cancel.mutationOptions({ onSuccess }));
  const error = settle.error ?? cancel.error;
  return (
    <section className="card" aria-labelledby="refunds-heading">
      <h2 id="refunds-heading">Refunds</h2>
      <p data-testid="payment-refund-status">
        Refund status: <StatusBadge kind="paymentRefund" status={payment.refundStatus} /> · refunded {formatMoney(payment.amountRefunded, payment.currency)} of{" "}
        {formatMoney(payment.amount, payment.currency)}
      </p>
      <QueryView query={refunds} what="refunds">
        {(rows) => (
          <>
            {rows.length > 0 ? (
              <RefundsTable
                refunds={rows}
                caption="Refunds of this payment"
                actions={(refund) =>
                  refund.status === "pending" || refund.status === "requires_action" ? (
                    <div className="form-row">
                      {refund.status === "pending" && mayCall("refunds.update") ? (
                        <button type="button" className="btn btn-small" data-procedure="refunds.update" disabled={settle.pending} onClick={() => void settle.submit({ id: refund.id, status: "succeeded" })}>
                          Mark sent
                        </button>
                      ) : null}
                      {mayCall("refunds.cancel") ? (
                        <button type="button" className="btn btn-small" data-procedure="refunds.cancel" disabled={cancel.pending} onClick={() => void cancel.submit({ id: refund.id })}>
                          Cancel
                        </button>
                      ) : null}
                    </div>
                  ) : null
                }
              />
            ) : null}
            {error ? (
              <p className="alert alert-error" role="alert">
                {error.message}
              </p>
            ) : null}
            {!mayCall("refunds.create") ? null : payment.status === "confirmed" ? (
              <RefundForm payment={payment} refundable={refundableOf(payment, rows)} as="merchant" startOpen={startOpen} />
            ) : (
              <p className="muted">Only a confirmed payment can be refunded.</p>
            )}
          </>
        )}
      </QueryView>
    </section>
  );
}
