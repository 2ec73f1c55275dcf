"use client";

import type { FormEvent, ReactNode } from "react";

/**
 * A list's filter form (payments, refunds, invoices): its fields, then Apply and Clear. Apply hands over the form's
 * trimmed values by name (empty ones undefined); Clear applies no filter at all. Keyed by the URL's filters by its
 * caller, so Back and a shared link show their own values in the fields.
 */
export function FilterForm<N extends string>({
  label,
  names,
  onApply,
  children,
}: {
  label: string;
  names: readonly N[];
  onApply: (values: Partial<Record<N, string>>) => void;
  children: ReactNode;
}) {
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    onApply(Object.fromEntries(names.map((name) => [name, String(form.get(name) ?? "").trim() || undefined])) as Partial<Record<N, string>>);
  }
  return (
    <form className="card form-row" onSubmit={submit} onReset={() => onApply({})} role="search" aria-label={label}>
      {children}
      <button type="submit" className="btn btn-primary">
        Apply filters
      </button>
      <button type="reset" className="btn">
        Clear
      </button>
    </form>
  );
}

/** The created-from and created-to fields of a filter form, as UTC days (`from`, `to`: lib/day-range.ts reads them). */
export function DayRangeFields({ idPrefix, from, to }: { idPrefix: string; from?: string; to?: string }) {
  return (
    <>
      <div className="field">
        <label htmlFor={`${idPrefix}-from`}>Created from (UTC day)</label>
        <input id={`${idPrefix}-from`} name="from" type="date" defaultValue={from} />
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-to`}>Created to (UTC day)</label>
        <input id={`${idPrefix}-to`} name="to" type="date" defaultValue={to} />
      </div>
    </>
  );
}
