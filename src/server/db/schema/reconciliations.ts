import { foreignKey, index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt, livemode, timestamptz, updatedAt } from "./columns";
import { merchants } from "./merchants";
import { reconciliationLineStatuses, reconciliationStatuses } from "../../../lib/statuses";
export { reconciliationLineStatuses, reconciliationStatuses } from "../../../lib/statuses";

export type ReconciliationLineStatus = (typeof reconciliationLineStatuses)[number];

export const reconciliationLineKinds = ["payment", "refund"] as const;

/** The payment lines' counts, and the refund lines' counted apart (docs/refunds.md; absent on reports made before). */
export interface ReconciliationSummary {
  matched: number;
  mismatched: number;
  missingInLedger: number;
  missingInFile: number;
  malformed: number;
  refunds?: { matched: number; mismatched: number; missingInLedger: number };
}

/**
 * One uploaded settlement file compared with the ledger (docs/reconciliation.md). Written while the file
 * streams in as `processing`, so a failed upload (too large, client gone) is deleted rather than shown half
 * done; only `complete` reports are ever read.
 */
export const reconciliations = pgTable(
  "reconciliations",
  {
    id: text("id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    /** A test-mode report matches test payments only, and is seen only in test mode (docs/test-mode.md). */
    livemode: livemode(),
    status: text("status", { enum: reconciliationStatuses }).notNull(),
    /** The window for `missingInFile` (payments created in it); null when neither the file nor the caller gave one. */
    windowFrom: timestamptz("window_from"),
    windowTo: timestamptz("window_to"),
    summary: jsonb("summary").$type<ReconciliationSummary>(),
    fileLines: integer("file_lines").notNull().default(0),
    /** `user`, `staff` or `api_key`, and its id: who uploaded the file. */
    createdByType: text("created_by_type").notNull(),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.merchantId, table.id] }), index("reconciliations_merchant_created_idx").on(table.merchantId, table.livemode, table.createdAt.desc(), table.id.desc())],
);

/**
 * The report's lines in file order (`position`); `missingInFile` lines come after the file's. Only the
 * primary key is indexed: a 100,000-line report is written in one go, and every other index made that
 * write slower than it made the reads (the anti-join for `missingInFile` and the duplicate check hash one
 * report's lines; a status filter reads one report in position order).
 */
export const reconciliationLines = pgTable(
  "reconciliation_lines",
  {
    merchantId: text("merchant_id").notNull(),
    reconciliationId: text("reconciliation_id").notNull(),
    position: integer("position").notNull(),
    /** The line in the file (header = 1); null for `missingInFile`. */
    lineNumber: integer("line_number"),
    status: text("status", { enum: reconciliationLineStatuses }).notNull(),
    /** A settlement line of money paid, or of money refunded (a negative amount, or a `type` column of `refund`). */
    kind: text("kind", { enum: reconciliationLineKinds }).notNull().default("payment"),
    /** Why a line is `mismatched` (`amount`, `currency`, `duplicate`, `ambiguous_reference`) or `malformed`. */
    reason: text("reason"),
    externalId: text("external_id"),
    reference: text("reference"),
    fileAmount: text("file_amount"),
    fileCurrency: text("file_currency"),
    fee: text("fee"),
    settledAt: timestamptz("settled_at"),
    paymentId: text("payment_id"),
    /** The recorded refund a refund line matched (by `externalId`); its payment is `paymentId`. */
    refundId: text("refund_id"),
    ledgerAmount: text("ledger_amount"),
    ledgerCurrency: text("ledger_currency"),
    resolvedAt: timestamptz("resolved_at"),
    resolvedBy: text("resolved_by"),
    resolutionNote: text("resolution_note"),
  },
  (table) => [
    primaryKey({ columns: [table.merchantId, table.reconciliationId, table.position] }),
    foreignKey({ name: "reconciliation_lines_report_fk", columns: [table.merchantId, table.reconciliationId], foreignColumns: [reconciliations.merchantId, reconciliations.id] }).onDelete("cascade"),
  ],
);

/** Which file column feeds which field, remembered per merchant for the dashboard's uploads. */
export const reconciliationMappings = pgTable("reconciliation_mappings", {
  merchantId: text("merchant_id")
    .primaryKey()
    .references(() => merchants.id, { onDelete: "cascade" }),
  columns: jsonb("columns").$type<Record<string, string>>().notNull(),
  updatedAt: updatedAt(),
});

export type ReconciliationRow = typeof reconciliations.$inferSelect;
export type ReconciliationLineRow = typeof reconciliationLines.$inferSelect;
