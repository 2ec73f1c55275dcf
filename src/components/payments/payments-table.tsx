"use client";

import { formatMoney } from "@/lib/format-money";
import { TableWrap } from "@/components/ui/table-wrap";
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import Link from "next/link";
import { StatusBadge } from "@/components/ui/badge";
import { formatDate } from "@/components/ui/format";
import type { PaymentView } from "./types";

const column = createColumnHelper<PaymentView>();

function columnsFor(detailHref: (payment: PaymentView) => string, showMerchant: boolean) {
  return [
    column.accessor("id", {
      header: "Payment",
      cell: (info) => (
        <Link href={detailHref(info.row.original)}>
          <code>{info.getValue()}</code>
        </Link>
      ),
    }),
    ...(showMerchant ? [column.accessor((row) => row.merchantId ?? "", { id: "merchant", header: "Merchant", cell: (info) => <code>{info.getValue()}</code> })] : []),
    column.accessor("externalId", { header: "External id" }),
    column.accessor("amount", {
      header: () => <span>Amount</span>,
      cell: (info) => formatMoney(info.getValue(), info.row.original.currency),
      meta: { numeric: true },
    }),
    column.accessor("status", { header: "Status", cell: (info) => <StatusBadge status={info.getValue()} /> }),
    column.accessor("reference", { header: "Reference", cell: (info) => info.getValue() ?? "—" }),
    column.accessor("reconciledAt", { header: "Reconciled", cell: (info) => (info.getValue() ? formatDate(info.getValue()) : "no") }),
    column.accessor("createdAt", { header: "Created", cell: (info) => formatDate(info.getValue()) }),
  ];
}

/** The payments of one page, as a table (sorting and filtering happen on the server). */
export function PaymentsTable({
  payments,
  detailHref,
  showMerchant = false,
  caption,
}: {
  payments: PaymentView[];
  detailHref: (payment: PaymentView) => string;
  showMerchant?: boolean;
  caption: string;
}) {
  const table = useReactTable({ data: payments, columns: columnsFor(detailHref, showMerchant), getCoreRowModel: getCoreRowModel() });
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
