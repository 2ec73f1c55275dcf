"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { FIELDS, useReconciliationApi } from "./use-reconciliation";

type Mapping = Partial<Record<(typeof FIELDS)[number], string>>;

/** The header of a CSV file, read from its first 64 KiB (only to offer its column names). */
async function headerOf(file: File): Promise<string[]> {
  const text = await file.slice(0, 64 * 1024).text();
  const first = text.replace(/^\ufeff/, "").split(/\r?\n/)[0] ?? "";
  return first.split(",").map((name) => name.trim().replace(/^"(.*)"$/, "$1")).filter(Boolean);
}

/**
 * Upload a settlement file: choose it, map its columns to the fields once (the last mapping is offered
 * again), optionally a window, and send it raw to the upload route, which streams it to the service.
 */
export function UploadForm({ merchantId, onDone }: { merchantId?: string; onDone: (id: string) => void }) {
  const api = useReconciliationApi(merchantId);
  const remembered = useQuery(api.mapping());
  const [file, setFile] = useState<File | null>(null);
  const [columns, setColumns] = useState<string[]>([]);
  const [mapping, setMapping] = useState<Mapping>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function choose(chosen: File | null) {
    setFile(chosen);
    setError(null);
    if (!chosen) return;
    const header = await headerOf(chosen);
    // The remembered mapping may still be loading (a file chosen right after the page opened): wait for it
    // before the column pickers appear, so it never overwrites a choice made in them.
    const saved = ((remembered.isSuccess ? remembered.data : (await remembered.refetch()).data) ?? {}) as Mapping;
    setColumns(header);
    const lower = new Map(header.map((name) => [name.toLowerCase(), name]));
    setMapping(Object.fromEntries(FIELDS.map((field) => [field, saved[field] && header.includes(saved[field]!) ? saved[field] : lower.get(field.toLowerCase())])));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!file) return;
    const form = new FormData(event.currentTarget);
    const chosen = Object.fromEntries(Object.entries(mapping).filter(([, column]) => column));
    setBusy(true);
    setError(null);
    try {
      const response = await fetch(
        `/dashboard/reconciliation/upload${api.query({ mapping: JSON.stringify(chosen), from: String(form.get("from") ?? ""), to: String(form.get("to") ?? "") })}`,
        { method: "POST", headers: { "content-type": "text/csv" }, body: file },
      );
      const body = (await response.json()) as { id?: string; detail?: string; errors?: { message: string }[] };
      if (!response.ok || !body.id) {
        setError([body.detail ?? "The upload failed.", ...(body.errors ?? []).map((item) => item.message)].join(" "));
        return;
      }
      await api.invalidate();
      onDone(body.id);
    } catch {
      setError("The upload failed: check your connection and try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="upload-heading">
      <h2 id="upload-heading">Upload a settlement file</h2>
      <form className="form" onSubmit={submit}>
        <div className="field">
          <label htmlFor="settlement-file">Settlement file (CSV, up to 10 MB)</label>
          <input id="settlement-file" type="file" accept=".csv,text/csv" required onChange={(event) => void choose(event.currentTarget.files?.[0] ?? null)} />
        </div>
        {columns.length > 0 ? (
          <fieldset className="form-row">
            <legend>Columns (remembered for your next file)</legend>
            {FIELDS.map((field) => (
              <div className="field" key={field}>
                <label htmlFor={`map-${field}`}>{field}</label>
                <select id={`map-${field}`} value={mapping[field] ?? ""} onChange={(event) => {
                  // An updater, not `{...mapping}`: two quick changes must not start from the same stale mapping.
                  const column = event.currentTarget.value || undefined;
                  setMapping((current) => ({ ...current, [field]: column }));
                }}>
                  <option value="">—</option>
                  {columns.map((column) => (
                    <option key={column} value={column}>
                      {column}
                    </option>
                  ))}
                </select>
              </div>
            ))}
          </fieldset>
        ) : null}
        <div className="form-row">
          <div className="field">
            <label htmlFor="window-from">Payments from (optional)</label>
            <input id="window-from" name="from" type="date" />
          </div>
          <div className="field">
            <label htmlFor="window-to">to</label>
            <input id="window-to" name="to" type="date" />
          </div>
          <button type="submit" className="btn btn-primary" disabled={!file || busy}>
            {busy ? "Reconciling…" : "Reconcile"}
          </button>
        </div>
        {error ? (
          <p className="alert alert-error" role="alert">
            {error}
          </p>
        ) : null}
      </form>
    </section>
  );
}
