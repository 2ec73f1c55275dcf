import { CsvError } from "csv-parse";
import { parse as parseCsv } from "csv-parse/sync";
import { z } from "zod";
import { isoDayInput, isoInstantInput } from "@/lib/iso-input";
import { binaryFileKind } from "@/lib/settlement-file";
import { storable } from "@/lib/storable-text";
import { ServiceError, ValidationError } from "../errors";
import { framedLines, MAX_LINE_BYTES } from "./file-lines";
import { MAX_FILE_LINES, RECONCILIATION_FIELDS, type ColumnMapping, type ReconciliationField } from "./schemas";

export interface SettlementLine {
  lineNumber: number;
  externalId: string | null;
  reference: string | null;
  amount: string;
  currency: string;
  settledAt: Date | null;
  fee: string | null;
  /** `refund` for a line of money going back: a negative amount, or a `type` column of `refund` (amount kept positive). */
  kind: "payment" | "refund";
}

export type FileLine = { ok: true; line: SettlementLine } | { ok: false; lineNumber: number; reason: string };

const DECIMAL = /^\d{1,30}(?:\.\d{1,30})?$/;
const CURRENCY = /^[A-Z0-9]{2,10}$/;
const settledAtInput = z.union([isoInstantInput({ offset: true }), isoDayInput()]);
const TOO_LONG = `longer than ${MAX_LINE_BYTES / 1024} KiB`;

/**
 * Reads a settlement CSV as it streams in and yields its data lines in batches, each checked. A data line is a
 * non-blank line after the header, and every one comes out exactly once, in file order: read, or malformed with
 * its line number and why (bad quoting, a field missing or not a decimal, too long) — and the file goes on. The
 * file is cut into lines first (file-lines.ts), then each line's fields are parsed on their own, so one bad
 * line never swallows the next. The header decides the columns: by `mapping` (file column per field), or,
 * without one, by header names equal to the field names (case-insensitive), as REST callers send them. Only
 * one batch is held at a time (docs/reconciliation.md).
 */
export async function* readSettlementFile(
  stream: ReadableStream<Uint8Array>,
  options: { mapping?: ColumnMapping; batchSize: number },
): AsyncGenerator<FileLine[]> {
  let columns: Map<ReconciliationField, number> | undefined;
  let batch: FileLine[] = [];
  let count = 0;
  for await (const lines of framedLines(stream)) {
    for (const framed of lines) {
      const { lineNumber } = framed;
      if (!framed.tooLong && framed.text.trim() === "") continue;
      const fields = framed.tooLong ? { ok: false as const, reason: TOO_LONG } : fieldsOf(framed.text);
      if (!columns) {
        // A PNG or a spreadsheet chosen by mistake is named as such, not as a header without the right columns.
        const kind = framed.tooLong ? null : binaryFileKind(framed.text);
        if (kind) throw new ValidationError([{ path: "body", message: `is ${kind}, not a CSV text file` }], `The file is not CSV: it looks like ${kind}.`);
        if (!fields.ok) throw new ValidationError([{ path: "body.header", message: `(line ${lineNumber}) is ${fields.reason}` }], "The file's header line cannot be read.");
        columns = columnIndexes(fields.fields, options.mapping);
        continue;
      }
      batch.push(fields.ok ? readLine(fields.fields, lineNumber, columns) : { ok: false, lineNumber, reason: fields.reason });
      if (batch.length >= options.batchSize) {
        count += batch.length;
        checkLineCount(count);
        yield batch;
        batch = [];
      }
    }
  }
  if (!columns) throw new ValidationError([{ path: "body", message: "is empty: a header line is expected" }], "The file has no header line.");
  checkLineCount(count + batch.length);
  if (batch.length > 0) yield batch;
}

/**
 * One line's fields (RFC 4180, trimmed), or why it is not CSV. A line without a quote is split on its commas —
 * exactly what csv-parse makes of it, without building a parser for it: csv-parse's set-up per call costs about
 * 50 µs, which for 100,000 lines would miss the reconciliation benchmark's target (bench/reconciliation.ts). A
 * line with quotes is csv-parse's, alone: an unclosed quote ends with its line.
 */
function fieldsOf(text: string): { ok: true; fields: string[] } | { ok: false; reason: string } {
  if (!text.includes('"')) return { ok: true, fields: text.split(",").map((field) => field.trim()) };
  try {
    const records = parseCsv(text, { trim: true, relax_column_count: true, record_delimiter: "\n" }) as string[][];
    if (records.length === 1) return { ok: true, fields: records[0]! };
    return { ok: false, reason: "not valid CSV (one line must be one record)" };
  } catch (error) {
    // The code, not the message: the message quotes the input.
    return { ok: false, reason: `not valid CSV (${error instanceof CsvError ? error.code : "unreadable"})` };
  }
}

function checkLineCount(count: number) {
  if (count > MAX_FILE_LINES) {
    throw new ServiceError("payload_too_large", `A settlement file may have at most ${MAX_FILE_LINES} lines.`);
  }
}

function columnIndexes(header: string[], mapping: ColumnMapping | undefined): Map<ReconciliationField, number> {
  const byName = new Map(header.map((name, index) => [name.toLowerCase(), index]));
  const columns = new Map<ReconciliationField, number>();
  const missing: string[] = [];
  for (const field of RECONCILIATION_FIELDS) {
    const name = mapping ? mapping[field] : field;
    if (name === undefined) continue;
    const index = byName.get(name.trim().toLowerCase());
    if (index !== undefined) columns.set(field, index);
    else if (mapping) missing.push(`has no column "${name}" (mapped to ${field})`);
  }
  // A mapping names every required field (columnMapping): its missing columns are already reported.
  if (missing.length === 0) {
    if (!columns.has("amount")) missing.push("needs an amount column");
    if (!columns.has("currency")) missing.push("needs a currency column");
    if (!columns.has("externalId") && !columns.has("reference")) missing.push("needs an externalId or reference column");
  }
  if (missing.length > 0) {
    throw new ValidationError(
      missing.map((message) => ({ path: "body.header", message })),
      "The file's header does not name the columns a settlement file needs.",
    );
  }
  return columns;
}

function readLine(record: string[], lineNumber: number, columns: Map<ReconciliationField, number>): FileLine {
  const cell = (field: ReconciliationField) => {
    const index = columns.get(field);
    const value = index === undefined ? undefined : record[index];
    return value === undefined || value === "" ? null : value;
  };
  const malformed = (reason: string): FileLine => ({ ok: false, lineNumber, reason });
  const externalId = cell("externalId");
  const reference = cell("reference");
  const signedAmount = cell("amount");
  const negative = signedAmount?.startsWith("-") ?? false;
  const amount = negative ? signedAmount!.slice(1) : signedAmount;
  const kind = negative || cell("type")?.toLowerCase() === "refund" ? "refund" : "payment";
  const currency = cell("currency")?.toUpperCase() ?? null;
  const settledAtText = cell("settledAt");
  const fee = cell("fee");
  for (const [name, value] of [["externalId", externalId], ["reference", reference]] as const) {
    if (value !== null && (value.length > 255 || !storable(value))) return malformed(`${name} must be at most 255 characters of text`);
  }
  if (externalId === null && reference === null) return malformed("has no externalId or reference");
  if (amount === null || !DECIMAL.test(amount)) return malformed('amount must be a plain decimal such as "19.99"');
  if (currency === null || !CURRENCY.test(currency)) return malformed("currency must be an ISO 4217 code or an asset symbol such as BTC");
  if (fee !== null && !DECIMAL.test(fee)) return malformed('fee must be a plain decimal such as "0.30"');
  let settledAt: Date | null = null;
  if (settledAtText !== null) {
    if (!settledAtInput.safeParse(settledAtText).success) return malformed("settledAt must be an ISO 8601 date or date-time");
    settledAt = new Date(settledAtText);
  }
  if (kind === "refund" && externalId === null) return malformed("a refund line needs an externalId (the processor's refund id)");
  return { ok: true, line: { lineNumber, externalId, reference, amount, currency, settledAt, fee, kind } };
}
