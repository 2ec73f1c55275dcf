import { formatMoney } from "@/lib/format-money";
import type { ReactNode } from "react";
import { StatusBadge } from "@/components/ui/badge";
import { DetailsList, MetadataBlock } from "@/components/ui/details-list";
import { formatDateTime } from "@/components/ui/format";
import type { InvoiceView } from "./types";
import { statusLabel } from "@/lib/statuses";

export function InvoiceDetails({ invoice }: { invoice: InvoiceView }) {
  const rows: [string, ReactNode][] = [
    ["Invoice id", <code key="id">{invoice.id}</code>],
    ["Order id", invoice.orderId ?? "—"],
    ["Amount", formatMoney(invoice.amount, invoice.currency)],
    ["Paid", formatMoney(invoice.amountPaid, invoice.currency)],
    ["Pending", formatMoney(invoice.amountPending, invoice.currency)],
    ["Refunded", formatMoney(invoice.amountRefunded, invoice.currency)],
    ["Remaining", formatMoney(invoice.amountRemaining, invoice.currency)],
    ["Status", <span key="s"><StatusBadge kind="invoice" status={invoice.status} />{invoice.statusDetail ? ` ${statusLabel("invoiceDetail", invoice.statusDetail)}` : ""}</span>],
    ["Description", invoice.description ?? "—"],
    ["Checkout", <a key="c" href={invoice.checkoutUrl}>{invoice.checkoutUrl}</a>],
    ["Return URL", invoice.returnUrl ?? "—"],
    ["Expires", formatDateTime(invoice.expiresAt)],
    ["Paid at", formatDateTime(invoice.paidAt)],
    ["Expired at", formatDateTime(invoice.expiredAt)],
    ["Voided at", formatDateTime(invoice.voidedAt)],
    ["Created", formatDateTime(invoice.createdAt)],
    ["Updated", formatDateTime(invoice.updatedAt)],
  ];
  return (
    <section className="card" aria-labelledby="invoice-heading">
      <h2 id="invoice-heading">Invoice</h2>
      <DetailsList rows={rows} />
      <MetadataBlock metadata={invoice.metadata} />
    </section>
  );
}
