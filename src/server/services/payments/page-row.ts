import { sql } from "drizzle-orm";
import type { KeysetPosition } from "@/lib/cursor";
import { payments } from "@/server/db/schema";
import { isoMicrosFromUtcText, isoMillisFromUtcText, isoMillisFromUtcTextOrNull, utcText } from "@/server/db/utc-text";
import type { Payment } from "./schemas";

/**
 * The columns of a page of payments, read for cheap rendering: timestamps as UTC text (db/utc-text.ts), the
 * amount as text (numeric would become a JSON number and lose digits). tests/integration/payments-list.test.ts
 * holds the items byte-identical to GET /payment/{id}, which renders through `toPayment`.
 */
export const pageColumns = {
  id: payments.id,
  externalId: payments.externalId,
  amount: sql<string>`${payments.amount}::text`,
  currency: payments.currency,
  status: payments.status,
  reference: payments.reference,
  invoiceId: payments.invoiceId,
  method: payments.method,
  network: payments.network,
  metadata: payments.metadata,
  occurredAt: utcText(payments.occurredAt),
  confirmedAt: utcText(payments.confirmedAt),
  failedAt: utcText(payments.failedAt),
  reconciledAt: utcText(payments.reconciledAt),
  createdAt: utcText(payments.createdAt),
  updatedAt: utcText(payments.updatedAt),
};

export interface PageRow {
  id: string;
  externalId: string;
  amount: string;
  currency: string;
  status: Payment["status"];
  reference: string | null;
  invoiceId: string | null;
  method: string | null;
  network: string | null;
  metadata: Payment["metadata"];
  occurredAt: string | null;
  confirmedAt: string | null;
  failedAt: string | null;
  reconciledAt: string | null;
  createdAt: string | null;
  updatedAt: string | null;
}

/** The row's keyset position: its created time with every microsecond (db/keyset.ts), and its id. */
export function pagePosition(row: PageRow): KeysetPosition {
  return { createdAt: isoMicrosFromUtcText(row.createdAt!), id: row.id };
}

/** A page row as clients see the payment, field for field in `toPayment`'s order. */
export function pageItem(row: PageRow): Payment {
  return {
    id: row.id,
    externalId: row.externalId,
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    reference: row.reference,
    invoiceId: row.invoiceId,
    method: row.method,
    network: row.network,
    metadata: row.metadata,
    occurredAt: isoMillisFromUtcTextOrNull(row.occurredAt),
    confirmedAt: isoMillisFromUtcTextOrNull(row.confirmedAt),
    failedAt: isoMillisFromUtcTextOrNull(row.failedAt),
    reconciledAt: isoMillisFromUtcTextOrNull(row.reconciledAt),
    createdAt: isoMillisFromUtcText(row.createdAt!),
    updatedAt: isoMillisFromUtcText(row.updatedAt!),
  };
}
