import { formatMoney } from "@/lib/format-money";
import { statusLabel } from "@/lib/statuses";
import { StatusBadge } from "@/components/ui/badge";
import { DetailsList, MetadataBlock } from "@/components/ui/details-list";
import { formatDateTime } from "@/components/ui/format";
import type { PaymentView } from "./types";

/** One payment's fields; `reconciledBy` is whatever names the reconciler for this reader (an email, "support"). */
export function PaymentDetails({ payment }: { payment: PaymentView }) {
  const rows: [string, React.ReactNode][] = [
    ["Payment id", <code key="id">{payment.id}</code>],
    ["External id", payment.externalId],
    ["Amount", formatMoney(payment.amount, payment.currency)],
    ["Status", <StatusBadge key="s" kind="payment" status={payment.status} />],
    ["Refunded", `${formatMoney(payment.amountRefunded, payment.currency)} (${statusLabel("paymentRefund", payment.refundStatus)})`],
    ["Reference", payment.reference ?? "—"],
    ["Invoice", payment.invoiceId ?? "—"],
    ["Method", payment.method ?? "—"],
    ["Network", payment.network ?? "—"],
    ["Occurred", formatDateTime(payment.occurredAt)],
    ["Confirmed", formatDateTime(payment.confirmedAt)],
    ["Failed", formatDateTime(payment.failedAt)],
    ["Reconciled", formatDateTime(payment.reconciledAt)],
    ...(payment.reconciliationNote ? ([["Reconciliation note", payment.reconciliationNote]] as [string, React.ReactNode][]) : []),
    ...(payment.reconciledAt && payment.reconciledBy ? ([["Reconciled by", payment.reconciledBy]] as [string, React.ReactNode][]) : []),
    ["Created", formatDateTime(payment.createdAt)],
    ["Updated", formatDateTime(payment.updatedAt)],
  ];
  return (
    <section className="card" aria-labelledby="payment-heading">
      <h2 id="payment-heading">Payment</h2>
      <DetailsList rows={rows} />
      <MetadataBlock metadata={payment.metadata} />
    </section>
  );
}
