"use client";

import type { FormEvent } from "react";
import type { PaymentFilters } from "./types";

/** The filters as the URL holds them (`?q=…&status=…&from=YYYY-MM-DD…`): what a reload, Back or a shared link keeps. */
export type PaymentUrlFilters = Partial<Record<"q" | "status" | "currency" | "reconciled" | "from" | "to", string>>;

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The URL's filters as the payments list takes them. Day inputs are UTC days: `from` starts the first, `to` ends the last. */
export function toListFilters(url: PaymentUrlFilters): PaymentFilters {
  const status = url.status === "pending" || url.status === "confirmed" || url.status === "failed" ? url.status : undefined;
  const reconciled = url.reconciled === "true" || url.reconciled === "false" ? url.reconciled : undefined;
  return {
    q: url.q?.trim() || undefined,
    status,
    currency: url.currency?.trim().toUpperCase() || undefined,
    reconciled,
    createdFrom: url.from && ISO_DAY.test(url.from) ? `${url.from}T00:00:00Z` : undefined,
    createdTo: url.to && ISO_DAY.test(url.to) ? dayAfter(url.to) : undefined,
  };
}

function dayAfter(day: string) {
  const next = new Date(`${day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}

export function PaymentFiltersForm({ current, onApply }: { current: PaymentUrlFilters; onApply: (filters: PaymentUrlFilters) => void }) {
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: string) => String(form.get(name) ?? "").trim() || undefined;
    onApply({ q: value("q"), status: value("status"), currency: value("currency")?.toUpperCase(), reconciled: value("reconciled"), from: value("from"), to: value("to") });
  }
  return (
    // Keyed by the URL's filters by the caller: Back and shared links show their own values in the fields.
    <form className="card form-row" onSubmit={submit} onReset={() => onApply({})} role="search" aria-label="Search and filter payments">
      <div className="field" style={{ flex: "2 1 16rem" }}>
        <label htmlFor="filter-q">Search</label>
        <input id="filter-q" name="q" defaultValue={current.q} placeholder="External id, reference or pay_… (any part)" aria-describedby="filter-q-hint" />
        <p id="filter-q-hint" className="field-hint">
          Matches the start or any part, in any case.
        </p>
      </div>
      <div className="field">
        <label htmlFor="filter-status">Status</label>
        <select id="filter-status" name="status" defaultValue={current.status ?? ""}>
          <option value="">Any</option>
          <option value="pending">Pending</option>
          <option value="confirmed">Confirmed</option>
          <option value="failed">Failed</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-currency">Currency</label>
        <input id="filter-currency" name="currency" size={6} defaultValue={current.currency} placeholder="USD" />
      </div>
      <div className="field">
        <label htmlFor="filter-reconciled">Reconciled</label>
        <select id="filter-reconciled" name="reconciled" defaultValue={current.reconciled ?? ""}>
          <option value="">Any</option>
          <option value="true">Reconciled</option>
          <option value="false">Not yet</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-from">Created from (UTC day)</label>
        <input id="filter-from" name="from" type="date" defaultValue={current.from} />
      </div>
      <div className="field">
        <label htmlFor="filter-to">Created to (UTC day)</label>
        <input id="filter-to" name="to" type="date" defaultValue={current.to} />
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
