"use client";

import type { PaymentFilters } from "./types";
import { StatusOptions } from "@/components/ui/badge";
import { DayRangeFields, FilterForm } from "@/components/ui/filter-form";
import { createdRangeOfDays } from "@/lib/day-range";
import { paymentStatuses } from "@/lib/statuses";

/** The filters as the URL holds them (`?q=…&status=…&from=YYYY-MM-DD…`): what a reload, Back or a shared link keeps. */
export type PaymentUrlFilters = Partial<Record<"q" | "status" | "currency" | "reconciled" | "from" | "to", string>>;

/** The URL's filters as the payments list takes them (the days: lib/day-range.ts). */
export function toListFilters(url: PaymentUrlFilters): PaymentFilters {
  const status = paymentStatuses.find((value) => value === url.status);
  const reconciled = url.reconciled === "true" || url.reconciled === "false" ? url.reconciled : undefined;
  return { q: url.q?.trim() || undefined, status, currency: url.currency?.trim().toUpperCase() || undefined, reconciled, ...createdRangeOfDays(url.from, url.to) };
}

const FIELDS = ["q", "status", "currency", "reconciled", "from", "to"] as const;

export function PaymentFiltersForm({ current, onApply }: { current: PaymentUrlFilters; onApply: (filters: PaymentUrlFilters) => void }) {
  return (
    <FilterForm label="Search and filter payments" names={FIELDS} onApply={(values) => onApply({ ...values, currency: values.currency?.toUpperCase() })}>
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
          <StatusOptions kind="payment" />
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
      <DayRangeFields idPrefix="filter" from={current.from} to={current.to} />
    </FilterForm>
  );
}
