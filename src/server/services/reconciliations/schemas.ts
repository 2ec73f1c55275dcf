import { z } from "zod";
import { isoDayInput, isoInstantInput, startNotAfterEnd } from "@/lib/iso-input";
import { listSchema, pageQuery } from "../pagination";
import { reconcilePaymentInput } from "../payments/schemas";
import { reconciliationLineStatuses, type ReconciliationLineRow, type ReconciliationRow } from "@/server/db/schema";

/** The fields a settlement file's columns can feed; REST files name them in their header. */
export const RECONCILIATION_FIELDS = ["externalId", "reference", "amount", "currency", "settledAt", "fee"] as const;
export type ReconciliationField = (typeof RECONCILIATION_FIELDS)[number];

/** Limits of one file (docs/reconciliation.md). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_FILE_LINES = 100_000;
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

const timestamp = z.iso.datetime();

export const reconciliationSummarySchema = z
  .object({
    matched: z.number().int(),
    mismatched: z.number().int(),
    missingInLedger: z.number().int(),
    missingInFile: z.number().int(),
    malformed: z.number().int().describe("Lines that could not be read; each is listed with its line number."),
  })
  .meta({ id: "ReconciliationSummary" });

export const reconciliationLineSchema = z
  .object({
    position: z.number().int(),
    lineNumber: z.number().int().nullable().describe("The line in the file (the header is line 1); null for `missingInFile`."),
    status: z.enum(reconciliationLineStatuses),
    reason: z.string().nullable().describe("`amount`, `currency`, `duplicate` or `ambiguous_reference` for `mismatched`; what is wrong for `malformed`."),
    externalId: z.string().nullable(),
    reference: z.string().nullable(),
    fileAmount: z.string().nullable(),
    ledgerAmount: z.string().nullable(),
    currency: z.string().nullable().describe("The file's currency (the payment's for `missingInFile`)."),
    ledgerCurrency: z.string().nullable(),
    fee: z.string().nullable(),
    settledAt: timestamp.nullable(),
    paymentId: z.string().nullable(),
    resolvedAt: timestamp.nullable(),
    resolutionNote: z.string().nullable(),
  })
  .meta({ id: "ReconciliationLine" });
export type ReconciliationLine = z.output<typeof reconciliationLineSchema>;

export const reconciliationSchema = z
  .object({
    id: z.string(),
    createdAt: timestamp,
    window: z.object({ from: timestamp.nullable(), to: timestamp.nullable() }),
    fileLines: z.number().int().describe("Data lines read from the file."),
    summary: reconciliationSummarySchema,
    lines: z.array(reconciliationLineSchema).describe(`Up to ${MAX_LINES_PER_PAGE} lines in file order; follow \`nextCursor\` for more.`),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: "Reconciliation" });
export type Reconciliation = z.output<typeof reconciliationSchema>;

export const reconciliationListItemSchema = reconciliationSchema.omit({ lines: true, hasMore: true, nextCursor: true });
export type ReconciliationListItem = z.output<typeof reconciliationListItemSchema>;

export function toReconciliationLine(row: ReconciliationLineRow): ReconciliationLine {
  return {
    position: row.position,
    lineNumber: row.lineNumber,
    status: row.status,
    reason: row.reason,
    externalId: row.externalId,
    reference: row.reference,
    fileAmount: row.fileAmount,
    ledgerAmount: row.ledgerAmount,
    currency: row.fileCurrency ?? row.ledgerCurrency,
    ledgerCurrency: row.ledgerCurrency,
    fee: row.fee,
    settledAt: row.settledAt?.toISOString() ?? null,
    paymentId: row.paymentId,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    resolutionNote: row.resolutionNote,
  };
}

export function toReconciliationListItem(row: ReconciliationRow): ReconciliationListItem {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    window: { from: row.windowFrom?.toISOString() ?? null, to: row.windowTo?.toISOString() ?? null },
    fileLines: row.fileLines,
    summary: row.summary ?? { matched: 0, mismatched: 0, missingInLedger: 0, missingInFile: 0, malformed: 0 },
  };
}

const note = reconcilePaymentInput.shape.note;
export const resolveLineInput = z.strictObject({ id: z.string().min(1).max(100), position: z.number().int().min(1), note });
export const resolveMatchedInput = z.strictObject({ id: z.string().min(1).max(100), note });
export const listReconciliationsInput = z.strictObject({ ...pageQuery });
export type ListReconciliationsInput = z.input<typeof listReconciliationsInput>;
export const reconciliationPageSchema = listSchema(reconciliationListItemSchema);
