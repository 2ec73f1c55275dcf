import { Readable } from "node:stream";
import { parse, type CsvError } from "csv-parse";
import { z } from "zod";
import { isoDayInput, isoInstantInput } from "@/lib/iso-input";
import { storable } from "@/lib/storable-text";
import { ServiceError, ValidationError } from "../errors";
import { MAX_FILE_LINES, RECONCILIATION_FIELDS, type ColumnMapping, type ReconciliationField } from "./schemas";

export interface SettlementLine {
  lineNumber: number;
  externalId: string | null;
  reference: string | null;
  amount: string;
  currency: string;
  settledAt: Date | null;
  fee: string | null;
}

export type FileLine = { ok: true; line: SettlementLine } | { ok: false; lineNumber: number; reason: string };

const DECIMAL = /^\d{1,30}(?:\.\d{1,30})?$/;
const CURRENCY = /^[A-Z0-9]{2,10}$/;
const settledAtInput = z.union([isoInstantInput({ offset: true }), isoDayInput()]);

/**
 * Reads a settlement CSV as it streams in and yields its data lines in batches, each checked: a line that
 * cannot be read (bad quoting, a field missing or not a decimal) comes out as malformed with its line number
 * and the file goes on. The header decides the columns: by `mapping` (file column per field), or, without
 * one, by header names equal to the field names (case-insensitive), as REST callers send them. Only one
 * batch is held at a time (csv-parse's stream API, docs/reconciliation.md).
 */
export async function* readSettlementFile(
  stream: ReadableStream<Uint8Array>,
  options: { mapping?: ColumnMapping; batchSize: number },
): AsyncGenerator<FileLine[]> {
  const skipped: Extract<FileLine, { ok: false }>[] = [];
  const parser = parse({
    bom: true,
    trim: true,
    skip_empty_lines: true,
    relax_column_count: true,
    max_record_size: 16 * 1024,
    skip_records_with_error: true,
    // The line number only: `info: true` builds a full info object per record (twice the parse time).
    on_record: (record, context) => Object.assign(record, { lineNumber: context.lines }),
    on_skip: (error: CsvError | undefined) => {
      const lineNumber = (error as (CsvError & { lines?: number }) | undefined)?.lines ?? 0;
      // One broken line can raise two errors (two stray quotes): report it once.
      if (skipped.at(-1)?.lineNumber === lineNumber) return undefined;
      // The code, not the message: the message quotes the input.
      skipped.push({ ok: false, lineNumber, reason: `not valid CSV (${error?.code ?? "unreadable"})` });
      return undefined;
    },
  });
  const source = Readable.fromWeb(stream as Parameters<typeof Readable.fromWeb>[0]);
  // A failing source (the body limit, a client gone) fails the parser, so the loop below throws it.
  source.on("error", (error) => parser.destroy(error));
  source.pipe(parser);

  let columns: Map<ReconciliationField, number> | undefined;
  let batch: FileLine[] = [];
  let count = 0;
  for await (const record of parser as AsyncIterable<string[] & { lineNumber: number }>) {
    if (!columns) {
      columns = columnIndexes(record, options.mapping);
      skipped.length = 0;
      continue;
    }
    batch.push(...skipped.splice(0), readLine(record, record.lineNumber, columns));
    if (batch.length >= options.batchSize) {
      count += batch.length;
      checkLineCount(count);
      yield batch;
      batch = [];
    }
  }
  if (!columns) throw new ValidationError([{ path: "body", message: "is empty: a header line is expected" }], "The file has no header line.");
  batch.push(...skipped.splice(0));
  checkLineCount(count + batch.length);
  if (batch.length > 0) yield batch;
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
  const amount = cell("amount");
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
  return { ok: true, line: { lineNumber, externalId, reference, amount, currency, settledAt, fee } };
}
