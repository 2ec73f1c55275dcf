"use client";

import type { FormEvent } from "react";

export interface InvoiceFilters {
  status?: "open" | "processing" | "paid" | "expired" | "void";
  orderId?: string;
}

const STATUSES = ["open", "processing", "paid", "expired", "void"] as const;

export function InvoiceFiltersForm({ initial, onApply }: { initial: InvoiceFilters; onApply: (filters: InvoiceFilters) => void }) {
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const status = STATUSES.find((candidate) => candidate === form.get("status"));
    const orderId = String(form.get("orderId") ?? "").trim();
    onApply({ status, orderId: orderId || undefined });
  }
  return (
    <form className="card form-row" onSubmit={submit} onReset={() => onApply({})} aria-label="Filter invoices">
      <div className="field">
        <label htmlFor="invoice-filter-status">Status</label>
        <select id="invoice-filter-status" name="status" defaultValue={initial.status ?? ""}>
          <option value="">Any</option>
          {STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="invoice-filter-order">Order id</label>
        <input id="invoice-filter-order" name="orderId" defaultValue={initial.orderId} />
      </div>
      <button type="submit" className="btn btn-primary">
        Apply filters
      </button>
      <button type="reset" className="btn">
        Clear
      </button>
    </form>
  );
}
