"use client";

import type { FormEvent } from "react";
import type { PaymentFilters } from "./types";

/** Day inputs are UTC days: `createdFrom` is the start of the first, `createdTo` the end of the last. */
function dayStart(day: string) {
  return day ? `${day}T00:00:00Z` : undefined;
}
function dayAfter(day: string) {
  if (!day) return undefined;
  const next = new Date(`${day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}

export function PaymentFiltersForm({ initial, onApply }: { initial: PaymentFilters; onApply: (filters: PaymentFilters) => void }) {
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: string) => String(form.get(name) ?? "").trim();
    const status = value("status");
    onApply({
      status: status === "pending" || status === "confirmed" || status === "failed" ? status : undefined,
      currency: value("currency").toUpperCase() || undefined,
      reference: value("reference") || undefined,
      externalId: value("externalId") || undefined,
      createdFrom: dayStart(value("from")),
      createdTo: dayAfter(value("to")),
    });
  }
  function clear(event: FormEvent<HTMLFormElement>) {
    event.currentTarget.reset();
    onApply({});
  }
  const lastDay = initial.createdTo ? new Date(new Date(initial.createdTo).getTime() - 1).toISOString().slice(0, 10) : "";
  return (
    <form className="card form-row" onSubmit={submit} onReset={clear} aria-label="Filter payments">
      <div className="field">
        <label htmlFor="filter-status">Status</label>
        <select id="filter-status" name="status" defaultValue={initial.status ?? ""}>
          <option value="">Any</option>
          <option value="pending">Pending</option>
          <option value="confirmed">Confirmed</option>
          <option value="failed">Failed</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-currency">Currency</label>
        <input id="filter-currency" name="currency" size={6} defaultValue={initial.currency} placeholder="USD" />
      </div>
      <div className="field">
        <label htmlFor="filter-external">External id</label>
        <input id="filter-external" name="externalId" defaultValue={initial.externalId} />
      </div>
      <div className="field">
        <label htmlFor="filter-reference">Reference</label>
        <input id="filter-reference" name="reference" defaultValue={initial.reference} />
      </div>
      <div className="field">
        <label htmlFor="filter-from">Created from (UTC day)</label>
        <input id="filter-from" name="from" type="date" defaultValue={initial.createdFrom?.slice(0, 10)} />
      </div>
      <div className="field">
        <label htmlFor="filter-to">Created to (UTC day)</label>
        <input id="filter-to" name="to" type="date" defaultValue={lastDay} />
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
