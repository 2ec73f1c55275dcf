"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useSubmitOnce } from "@/components/ui/use-submission";
import { binaryFileKind, formatFileSize, MAX_SETTLEMENT_FILE_BYTES, SETTLEMENT_FIELD_HELP, SETTLEMENT_FILE_EXAMPLE } from "@/lib/settlement-file";
import { FIELDS, useReconciliationApi } from "./use-reconciliation";

type Mapping = Partial<Record<(typeof FIELDS)[number], string>>;

const PEEK_BYTES = 64 * 1024;

/**
 * A chosen file read as far as the form needs (its first 64 KiB): its header's column names, or what is wrong
 * with it, said before anything is sent — empty, too large (never uploaded whole to be refused), not CSV text,
 * or a header with no payment lines. The server checks the same again (docs/reconciliation.md).
 */
async function readChosenFile(file: File): Promise<{ columns: string[] } | { problem: string }> {
  if (file.size === 0) return { problem: `${file.name} is empty: a settlement file has a header line and one line per payment.` };
  if (file.size > MAX_SETTLEMENT_FILE_BYTES) {
    return {
      problem: `${file.name} is ${formatFileSize(file.size)}; files are limited to ${formatFileSize(MAX_SETTLEMENT_FILE_BYTES)}. Split it (by settlement date, say) and upload each part.`,
    };
  }
  const text = (await file.slice(0, PEEK_BYTES).text()).replace(/^\ufeff/, "");
  const kind = binaryFileKind(text);
  if (kind) return { problem: `${file.name} is not a CSV file: it looks like ${kind}. Export the settlement report as CSV (comma-separated text).` };
  const lines = text.split(/\r?\n/);
  const columns = (lines[0] ?? "").split(",").map((name) => name.trim().replace(/^"(.*)"$/, "$1")).filter(Boolean);
  if (columns.length === 0) return { problem: `${file.name} has no header line: its first line must name the columns.` };
  const dataLines = lines.slice(1).filter((line) => line.trim() !== "").length;
  if (dataLines === 0 && file.size <= PEEK_BYTES) return { problem: `${file.name} has a header line but no payment lines: there is nothing to reconcile.` };
  return { columns };
}

/** A refusal's errors in words: `body.header` is the file's header, `query.from` the window's start. */
function errorText(error: { path?: string; message: string }): string {
  const where: Record<string, string> = { body: "The file", "body.header": "The header", "query.from": "Payments from", "query.to": "Payments to" };
  return `${(error.path && where[error.path]) ?? error.path ?? "The file"} ${error.message}.`;
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
  const [reading, setReading] = useState(false);
  // Once per submission (its Idempotency-Key): a double click, or the same file and settings sent again,
  // answers the report the first upload made. A new file or other settings is a new submission.
  const upload = useSubmitOnce(async (idempotencyKey: string, request: { url: string; file: File }) => {
    try {
      const response = await fetch(request.url, {
        method: "POST",
        headers: { "content-type": "text/csv", "idempotency-key": idempotencyKey },
        body: request.file,
      });
      const body = (await response.json()) as { id?: string; detail?: string; errors?: { path?: string; message: string }[] };
      if (!response.ok || !body.id) {
        setError([body.detail ?? "The upload failed.", ...(body.errors ?? []).map(errorText)].join(" "));
        return;
      }
      await api.invalidate();
      onDone(body.id);
    } catch {
      setError("The upload failed: check your connection and try again.");
    }
  });

  async function choose(chosen: File | null) {
    setFile(null);
    setColumns([]);
    setError(null);
    if (!chosen) return;
    // Until the columns are read, "Reconcile" waits: sent now, the file would go without its mapping.
    setReading(true);
    try {
      const read = await readChosenFile(chosen);
      if ("problem" in read) return setError(read.problem);
      setFile(chosen);
      const header = read.columns;
      // The remembered mapping may still be loading (a file chosen right after the page opened): wait for it
      // before the column pickers appear, so it never overwrites a choice made in them.
      const saved = ((remembered.isSuccess ? remembered.data : (await remembered.refetch()).data) ?? {}) as Mapping;
      setColumns(header);
      const lower = new Map(header.map((name) => [name.toLowerCase(), name]));
      setMapping(Object.fromEntries(FIELDS.map((field) => [field, saved[field] && header.includes(saved[field]!) ? saved[field] : lower.get(field.toLowerCase())])));
    } finally {
      setReading(false);
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!file) return;
    const form = new FormData(event.currentTarget);
    const chosen = Object.fromEntries(Object.entries(mapping).filter(([, column]) => column));
    setError(null);
    const url = `/dashboard/reconciliation/upload${api.query({ mapping: JSON.stringify(chosen), from: String(form.get("from") ?? ""), to: String(form.get("to") ?? "") })}`;
    // The submission is this file (by name, size and last change) with these settings.
    await upload.submit({ url, file }, JSON.stringify([url, file.name, file.size, file.lastModified]));
  }

  if (!api.mayUpload) return null;
  return (
    <section className="card" aria-labelledby="upload-heading" data-permission={api.uploadPermission}>
      <h2 id="upload-heading">Upload a settlement file</h2>
      <form className="form" onSubmit={submit}>
        <div className="field">
          <label htmlFor="settlement-file">Settlement file (CSV, up to {formatFileSize(MAX_SETTLEMENT_FILE_BYTES)})</label>
          <input
            id="settlement-file"
            type="file"
            accept=".csv,text/csv"
            required
            aria-invalid={error && !file ? true : undefined}
            aria-describedby={error ? "upload-error" : "settlement-columns"}
            onChange={(event) => void choose(event.currentTarget.files?.[0] ?? null)}
          />
        </div>
        {columns.length === 0 ? <ExpectedColumns /> : null}
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
          <button type="submit" className="btn btn-primary" disabled={!file || reading || upload.pending}>
            {upload.pending ? "Reconciling…" : "Reconcile"}
          </button>
        </div>
        {error ? (
          <p className="alert alert-error" role="alert" id="upload-error">
            {error}
          </p>
        ) : null}
      </form>
    </section>
  );
}

/** What a file must hold, shown before one is chosen: each column and an example. */
function ExpectedColumns() {
  return (
    <div id="settlement-columns" className="expected-columns">
      <p className="field-hint">
        One line per settled payment, under a header line naming the columns. Your processor&apos;s own column names are
        fine: you match them to these after choosing the file.
      </p>
      <ul>
        {FIELDS.map((field) => (
          <li key={field}>
            <code>{field}</code>: {SETTLEMENT_FIELD_HELP[field]}
          </li>
        ))}
      </ul>
      <p className="field-hint">For example:</p>
      <pre className="code" aria-label="An example settlement file">
        {SETTLEMENT_FILE_EXAMPLE}
      </pre>
    </div>
  );
}
