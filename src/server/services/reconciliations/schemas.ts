import { z } from "zod";
import { isoDayInput, isoInstantInput, startNotAfterEnd } from "@/lib/iso-input";
import { MAX_SETTLEMENT_FILE_BYTES, SETTLEMENT_FIELDS, type SettlementField } from "@/lib/settlement-file";
import { listSchema, pageQuery } from "../pagination";
import { reconcilePaymentInput } from "../payments/schemas";
import { createSelectSchema } from "drizzle-zod";
import {
  reconciliationLines,
  reconciliationLineStatuses,
  reconciliations,
  type ReconciliationLineRow,
  type ReconciliationRow,
  type ReconciliationSummary,
} from "@/server/db/schema";
import { describeFields, isoTimestamps, rowShape } from "../row-shape";

/** The fields a settlement file's columns can feed (src/lib/settlement-file.ts); REST files name them in their header. */
export const RECONCILIATION_FIELDS = SETTLEMENT_FIELDS;
export type ReconciliationField = SettlementField;

/** Limits of one file (docs/reconciliation.md). */
export const MAX_FILE_BYTES = MAX_SETTLEMENT_FILE_BYTES;
export const MAX_FILE_LINES = 100_000;
/** missingInFile lines of one report (docs/reconciliation.md, "The window"). */
export const MAX_MISSING_IN_FILE = 10_000;
/** Lines per answer of `GET reconciliation/{id}` (and the POST's first page). */
export const MAX_LINES_PER_PAGE = 1000;

const windowBound = z.union([isoInstantInput({ offset: true }), isoDayInput()]);

/** `from`/`to` override the window for `missingInFile` (a day `to` includes that whole day). */
export const reconciliationWindowInput = z
  .strictObject({
    from: windowBound.optional().describe("Start of the window (ISO 8601 instant or day). Default: the file's first `settledAt`."),
    to: windowBound.optional().describe("End of the window, inclusive (a day means all of it). Default: the file's last `settledAt`."),
  })
  .superRefine(startNotAfterEnd("from", "to"));
export type ReconciliationWindowInput = z.output<typeof reconciliationWindowInput>;

/** Which file column (header name) feeds which field; `amount`, `currency` and an id column are required. */
export const columnMapping = z
  .strictObject(Object.fromEntries(RECONCILIATION_FIELDS.map((field) => [field, z.string().min(1).max(200).optional()])) as Record<ReconciliationField, z.ZodOptional<z.ZodString>>)
  .refine((columns) => columns.amount && columns.currency && (columns.externalId || columns.reference), {
    message: "must name the amount and currency columns and an externalId or reference column",
  });
export type ColumnMapping = Partial<Record<ReconciliationField, string>>;

const linesQuery = {
  status: z.enum(reconciliationLineStatuses).optional().describe("Only lines with this status."),
  cursor: z
    .string()
    .regex(/^\d{1,7}$/, "must be the nextCursor of the previous page")
    .optional()
    .describe("`nextCursor` of the previous page."),
};

export const getReconciliationInput = z.strictObject({ id: z.string().min(1).max(100), ...linesQuery });
export const reconciliationLinesQuery = z.strictObject(linesQuery);

export const reconciliationSummarySchema = z
  .object({
    matched: z.number().int(),
    mismatched: z.number().int(),
    missingInLedger: z.number().int(),
    missingInFile: z.number().int(),
    malformed: z.number().int().describe("Lines that could not be read; each is listed with its line number."),
    refunds: z
      .object({ matched: z.number().int(), mismatched: z.number().int(), missingInLedger: z.number().int() })
      .describe("Refund lines (a negative amount, or `type` `refund`), matched to recorded refunds by `externalId`; the counts above are payment lines only."),
  })
  .meta({ id: "ReconciliationSummary" });

/**
 * A line of a report as clients see it (docs/reconciliation.md): the reconciliation_lines row less its report's
 * id and who resolved it, with one `currency`, the file's (the payment's for `missingInFile`).
 */
export const reconciliationLineSchema = describeFields(
  createSelectSchema(reconciliationLines, isoTimestamps(reconciliationLines))
    .omit({ merchantId: true, reconciliationId: true, fileCurrency: true, resolvedBy: true })
    .extend({ currency: z.string().nullable() }),
  {
    lineNumber: "The line in the file (the header is line 1); null for `missingInFile`.",
    reason: "`amount`, `currency`, `duplicate` or `ambiguous_reference` for `mismatched`; what is wrong for `malformed`.",
    currency: "The file's currency (the payment's for `missingInFile`).",
  },
).meta({ id: "ReconciliationLine" });
export type ReconciliationLine = z.output<typeof reconciliationLineSchema>;

const lineShape = rowShape<typeof reconciliationLineSchema, ReconciliationLineRow & Pick<ReconciliationLine, "currency">>(reconciliationLineSchema);

export function toReconciliationLine(row: ReconciliationLineRow): ReconciliationLine {
  return lineShape({ ...row, currency: row.fileCurrency ?? row.ledgerCurrency });
}

const reportRowSchema = createSelectSchema(reconciliations, { ...isoTimestamps(reconciliations), summary: reconciliationSummarySchema });

/**
 * A report as listed (docs/reconciliation.md): the reconciliations row less whose it is, its mode, its processing
 * state and who uploaded it, with its window as one object.
 */
export const reconciliationListItemSchema = describeFields(
  reportRowSchema
    .omit({ merchantId: true, livemode: true, status: true, windowFrom: true, windowTo: true, createdByType: true, createdBy: true, updatedAt: true })
    .extend({ window: z.object({ from: reportRowSchema.shape.windowFrom, to: reportRowSchema.shape.windowTo }) }),
  { fileLines: "Data lines read from the file." },
);
export type ReconciliationListItem = z.output<typeof reconciliationListItemSchema>;

/** A report with a page of its lines. */
export const reconciliationSchema = reconciliationListItemSchema
  .extend({
    lines: z.array(reconciliationLineSchema).describe(`Up to ${MAX_LINES_PER_PAGE} lines in file order; follow \`nextCursor\` for more.`),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: "Reconciliation" });
export type Reconciliation = z.output<typeof reconciliationSchema>;

export const EMPTY_REFUND_COUNTS = { matched: 0, mismatched: 0, missingInLedger: 0 };
const EMPTY_SUMMARY: ReconciliationSummary = { matched: 0, mismatched: 0, missingInLedger: 0, missingInFile: 0, malformed: 0, refunds: EMPTY_REFUND_COUNTS };
const reportShape = rowShape<typeof reconciliationListItemSchema, ReconciliationRow & Pick<ReconciliationListItem, "window">>(reconciliationListItemSchema);

export function toReconciliationListItem(row: ReconciliationRow): ReconciliationListItem {
  const window = { from: row.windowFrom?.toISOString() ?? null, to: row.windowTo?.toISOString() ?? null };
  const summary = row.summary ? { ...row.summary, refunds: row.summary.refunds ?? EMPTY_REFUND_COUNTS } : EMPTY_SUMMARY;
  return reportShape({ ...row, summary, window });
}

const note = reconcilePaymentInput.shape.note;
export const resolveLineInput = z.strictObject({ id: z.string().min(1).max(100), position: z.number().int().min(1), note });
export const resolveMatchedInput = z.strictObject({ id: z.string().min(1).max(100), note });
export const listReconciliationsInput = z.strictObject({ ...pageQuery });
export type ListReconciliationsInput = z.input<typeof listReconciliationsInput>;
export const reconciliationPageSchema = listSchema(reconciliationListItemSchema);
