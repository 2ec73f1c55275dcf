/**
 * What a settlement file must be (docs/reconciliation.md, "Columns" and "Limits"), in one place for the service
 * that reads it and the dashboard form that checks a file before sending it.
 */

/** The fields a settlement file's columns can feed; REST files name them in their header. */
export const SETTLEMENT_FIELDS = ["externalId", "reference", "amount", "currency", "settledAt", "fee", "type"] as const;
export type SettlementField = (typeof SETTLEMENT_FIELDS)[number];

/** What each field holds, as the upload form explains it before a file is chosen. */
export const SETTLEMENT_FIELD_HELP: Record<SettlementField, string> = {
  externalId: "your payment's external id (this or reference is required)",
  reference: "the payment's reference (this or externalId is required)",
  amount: "the settled amount, a plain decimal (required)",
  currency: "the currency code, such as EUR (required)",
  settledAt: "the settlement day or time, ISO 8601 (optional; sets the window)",
  fee: "the processor's fee, a plain decimal (optional)",
  type: "`refund` marks a refund line, as a negative amount does (optional; refunds match by externalId)",
};

/** An example file, as the upload form shows it. */
export const SETTLEMENT_FILE_EXAMPLE = [
  "externalId,reference,amount,currency,settledAt,fee",
  "pi_3QxA1b2C3d,,19.99,EUR,2026-11-26,0.35",
  "order-1029,RF18539007547034,120.00,USD,2026-11-26T14:02:00Z,",
].join("\n");

export const MAX_SETTLEMENT_FILE_BYTES = 10 * 1024 * 1024;

/**
 * The start of a file that is not CSV text, named by what it looks like (its first line decoded as UTF-8, so an
 * invalid byte reads as U+FFFD): "a PNG image", or null for text.
 */
export function binaryFileKind(start: string): string | null {
  if (start.startsWith("\uFFFDPNG")) return "a PNG image";
  if (start.startsWith("%PDF-")) return "a PDF document";
  if (start.startsWith("GIF8")) return "a GIF image";
  if (start.startsWith("PK\u0003\u0004")) return "a ZIP archive or an Excel workbook (.xlsx)";
  if (/^\uFFFD\uFFFD\uFFFD/.test(start)) return "a JPEG image or another binary file";
  // NUL never occurs in UTF-8 text; an invalid byte alone may be a header saved as Latin-1, which still reads.
  if (start.slice(0, 4096).includes("\u0000")) return "a binary file (or text not saved as UTF-8)";
  return null;
}

/** A size in words for messages: "12.4 MB", "10 MB". */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
}
