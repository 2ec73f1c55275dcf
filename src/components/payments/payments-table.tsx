"use client";

import { formatMoney } from "@/lib/format-money";
import { TableWrap } from "@/components/ui/table-wrap";
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import type { ReactNode } from "react";
import { StatusBadge } from "@/components/ui/badge";
import { LongValue } from "@/components/ui/long-value";
import { When } from "@/components/ui/when";
import type { PaymentView } from "./types";

const column = createColumnHelper<PaymentView>();

function columnsFor(detailHref: (payment: PaymentView) => string, merchant?: (merchantId: string) => ReactNode) {
  return [
    column.accessor("id", {
      header: "Payment",
      cell: (info) => <LongValue value={info.getValue()} what="payment id" href={detailHref(info.row.original)} code width={13} />,
    }),
    ...(merchant ? [column.accessor((row) => row.merchantId ?? "", { id: "merchant", header: "Merchant", cell: (info) => merchant(info.getValue()) })] : []),
    // The merchant's own ids are what people search by and recognise: each opens the payment too.
    column.accessor("externalId", {
      header: "External id",
      cell: (info) => <LongValue value={info.getValue()} what="external id" href={detailHref(info.row.original)} width={18} />,
    }),
    column.accessor("amount", {
      header: () => <span>Amount</span>,
      cell: (info) => formatMoney(info.getValue(), info.row.original.currency),
      meta: { numeric: true },
    }),
    column.accessor("status", { header: "Status", cell: (info) => <StatusBadge kind="payment" status={info.getValue()} /> }),
    column.accessor("reference", {
      header: "Reference",
      cell: (info) => {
        const reference = info.getValue();
        return reference ? <LongValue value={reference} what="reference" href={detailHref(info.row.original)} width={14} /> : "—";
      },
      meta: { spare: true },
    }),
    column.accessor("reconciledAt", {
      header: "Reconciled",
      cell: (info) => (info.getValue() ? <When value={info.getValue()} /> : "not yet"),
      // Staff tables have the merchant column too: this one waits for a wide screen there (the detail shows it).
      meta: merchant ? { extra: true } : { spare: true },
    }),
    column.accessor("createdAt", { header: "Created", cell: (info) => <When value={info.getValue()} /> }),
  ];
}

/** A column's class: numbers right-aligned; spare and extra columns hidden where the table is narrow (dashboard.css). */
function columnClass(meta: unknown): string | undefined {
  const { numeric, spare, extra } = (meta ?? {}) as { numeric?: boolean; spare?: boolean; extra?: boolean };
  return [numeric ? "num" : "", spare ? "col-spare" : "", extra ? "col-extra" : ""].filter(Boolean).join(" ") || undefined;
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
                <th key={header.id} scope="col" className={columnClass(header.column.columnDef.meta)}>
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
                <td key={cell.id} className={columnClass(cell.column.columnDef.meta)}>
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
