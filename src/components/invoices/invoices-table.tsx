import { formatMoney } from "@/lib/format-money";
import Link from "next/link";
import { StatusBadge } from "@/components/ui/badge";
import { formatDate } from "@/components/ui/format";
import { TableWrap } from "@/components/ui/table-wrap";
import type { Invoice } from "@/server/services/invoices/schemas";

/** One page of invoices (filtering and paging happen on the server). */
export function InvoicesTable({ invoices, detailHref, caption }: { invoices: Invoice[]; detailHref: (invoice: Invoice) => string; caption: string }) {
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
            <th scope="col">Expires</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {invoices.map((invoice) => (
            <tr key={invoice.id}>
              <td>
                <Link href={detailHref(invoice)}>
                  <code>{invoice.id}</code>
                </Link>
              </td>
              <td>{invoice.orderId ?? "—"}</td>
              <td className="num">{formatMoney(invoice.amount, invoice.currency)}</td>
              <td className="num">{formatMoney(invoice.amountPaid, invoice.currency)}</td>
              <td>
                <StatusBadge status={invoice.status} />
                {invoice.statusDetail ? <small> {invoice.statusDetail}</small> : null}
              </td>
              <td>{formatDate(invoice.expiresAt)}</td>
              <td>{formatDate(invoice.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
