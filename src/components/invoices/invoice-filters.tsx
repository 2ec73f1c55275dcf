"use client";

import { StatusOptions } from "@/components/ui/badge";
import { FilterForm } from "@/components/ui/filter-form";
import { invoiceStatuses, type StatusOf } from "@/lib/statuses";

export interface InvoiceFilters {
  status?: StatusOf<"invoice">;
  orderId?: string;
}

export function InvoiceFiltersForm({ initial, onApply }: { initial: InvoiceFilters; onApply: (filters: InvoiceFilters) => void }) {
  return (
    <FilterForm
      label="Filter invoices"
      names={["status", "orderId"]}
      onApply={(values) => onApply({ status: invoiceStatuses.find((candidate) => candidate === values.status), orderId: values.orderId })}
    >
      <div className="field">
        <label htmlFor="invoice-filter-status">Status</label>
        <select id="invoice-filter-status" name="status" defaultValue={initial.status ?? ""}>
          <option value="">Any</option>
          <StatusOptions kind="invoice" />
        </select>
      </div>
      <div className="field">
        <label htmlFor="invoice-filter-order">Order id</label>
        <input id="invoice-filter-order" name="orderId" defaultValue={initial.orderId} />
      </div>
    </FilterForm>
  );
}
