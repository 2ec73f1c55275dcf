import { formatMoney } from "@/lib/format-money";
import { StatusBadge } from "@/components/ui/badge";
import { TableWrap } from "@/components/ui/table-wrap";
import type { InvoiceView } from "./types";
import { statusLabel } from "@/lib/statuses";
import { LongValue } from "@/components/ui/long-value";
import { When } from "@/components/ui/when";

/** One page of invoices (filtering and paging happen on the server). */
export function InvoicesTable({ invoices, detailHref, caption }: { invoices: InvoiceView[]; detailHref: (invoice: InvoiceView) => string; caption: string }) {
  return (
    <TableWrap label={caption}>
      <table className="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Invoice</th>
            <th scope="col">Order id</th>
            <th scope="col" className="num">Amount</th>
            <th scope="col" className="num">Paid</th>
            <th scope="col">Status</th>
            <th scope="col" className="col-spare">Expires</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {invoices.map((invoice) => (
            <tr key={invoice.id}>
              <td>
                <LongValue value={invoice.id} what="invoice id" href={detailHref(invoice)} code width={14} />
              </td>
              <td>{invoice.orderId ? <LongValue value={invoice.orderId} what="order id" width={20} /> : "—"}</td>
              <td className="num">{formatMoney(invoice.amount, invoice.currency)}</td>
              <td className="num">{formatMoney(invoice.amountPaid, invoice.currency)}</td>
              <td>
                <StatusBadge kind="invoice" status={invoice.status} />
                {invoice.statusDetail ? <small className="muted"> {statusLabel("invoiceDetail", invoice.statusDetail)}</small> : null}
              </td>
              <td className="col-spare">
                <When value={invoice.expiresAt} />
              </td>
              <td>
                <When value={invoice.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
