"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { formatMoney } from "@/lib/format-money";
import { StatusBadge } from "@/components/ui/badge";
import { formatDate } from "@/components/ui/format";
import { TableWrap } from "@/components/ui/table-wrap";
import { REFUND_REASON_LABELS, type RefundView } from "./types";

/** Refunds as a table; `actions` adds a cell of buttons per row (the payment page's cancel and settle). */
export function RefundsTable({ refunds, caption, actions }: { refunds: RefundView[]; caption: string; actions?: (refund: RefundView) => ReactNode }) {
  return (
    <TableWrap label={caption}>
      <table className="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Refund</th>
            <th scope="col">Payment</th>
            <th scope="col" className="num">
              Amount
            </th>
            <th scope="col">Status</th>
            <th scope="col">Reason</th>
            <th scope="col">Created</th>
            {actions ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {refunds.map((refund) => (
            <tr key={refund.id} data-testid="refund-row">
              <td>
                <code>{refund.id}</code>
              </td>
              <td>
                <Link href={`/dashboard/payments/${refund.paymentId}`}>
                  <code>{refund.paymentId}</code>
                </Link>
              </td>
              <td className="num">{formatMoney(refund.amount, refund.currency)}</td>
              <td>
                <StatusBadge kind="refund" status={refund.status} />
                {refund.failureReason ? <span className="muted"> ({refund.failureReason})</span> : null}
                {refund.claimUrl && refund.status === "requires_action" ? (
                  <div>
                    <a href={refund.claimUrl} rel="noreferrer">
                      Claim link
                    </a>
                  </div>
                ) : null}
              </td>
              <td>{refund.reason ? REFUND_REASON_LABELS[refund.reason] : "—"}</td>
              <td>{formatDate(refund.createdAt)}</td>
              {actions ? <td>{actions(refund)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
