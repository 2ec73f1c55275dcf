"use client";

import { formatMoney } from "@/lib/format-money";
import { TableWrap } from "@/components/ui/table-wrap";
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import Link from "next/link";
import type { ReactNode } from "react";
import { StatusBadge } from "@/components/ui/badge";
import { formatDate } from "@/components/ui/format";
import type { PaymentView } from "./types";

const column = createColumnHelper<PaymentView>();

function columnsFor(detailHref: (payment: PaymentView) => string, merchant?: (merchantId: string) => ReactNode) {
  return [
    column.accessor("id", {
      header: "Payment",
      cell: (info) => (
        <Link href={detailHref(info.row.original)}>
          <code>{info.getValue()}</code>
        </Link>
      ),
    }),
    ...(merchant ? [column.accessor((row) => row.merchantId ?? "", { id: "merchant", header: "Merchant", cell: (info) => merchant(info.getValue()) })] : []),
    // The merchant's own ids are what people search by and recognise: each opens the payment too.
    column.accessor("externalId", { header: "External id", cell: (info) => <Link href={detailHref(info.row.original)}>{info.getValue()}</Link> }),
    column.accessor("amount", {
      header: () => <span>Amount</span>,
      cell: (info) => formatMoney(info.getValue(), info.row.original.currency),
      meta: { numeric: true },
    }),
    column.accessor("status", { header: "Status", cell: (info) => <StatusBadge status={info.getValue()} /> }),
    column.accessor("reference", {
      header: "Reference",
      cell: (info) => {
        const reference = info.getValue();
        return reference ? <Link href={detailHref(info.row.original)}>{reference}</Link> : "—";
      },
    }),
    column.accessor("reconciledAt", {
      header: "Reconciled",
      cell: (info) => (info.getValue() ? `yes, ${formatDate(info.getValue())}` : "not yet"),
    }),
    column.accessor("createdAt", { header: "Created", cell: (info) => formatDate(info.getValue()) }),
  ];
}

/** The payments of one page, as a table (sorting and filtering happen on the server). */
export function PaymentsTable({
  payments,
  detailHref,
  merchant,
  caption,
}: {
  payments: PaymentView[];
  detailHref: (payment: PaymentView) => string;
  /** Staff views across merchants: how to show a row's merchant. */
  merchant?: (merchantId: string) => ReactNode;
  caption: string;
}) {
  const table = useReactTable({ data: payments, columns: columnsFor(detailHref, merchant), getCoreRowModel: getCoreRowModel() });
  return (
    <TableWrap label={caption}>
      <table className="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col" className={(header.column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric ? "num" : undefined}>
                  {flexRender(header.column.columnDef.header, header.getContext())}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} className={(cell.column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric ? "num" : undefined}>
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
