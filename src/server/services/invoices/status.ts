import { addDecimals, compareDecimals } from "@/lib/money";
import type { InvoiceRow, InvoiceStatus, InvoiceStatusDetail } from "@/server/db/schema";

/**
 * The invoice state machine (docs/invoices.md), pure: what the verbs write and what reads show.
 *   open → processing (paid + pending ≥ amount, paid < amount) → paid (paid ≥ amount)
 *   open|processing → expired at expiresAt; expired → paid within the grace period ("paid_late")
 *   open|expired → void
 */

const isPositive = (amount: string) => compareDecimals(amount, "0") > 0;

/** Still waiting for money, and its time is up: the sweep (expire-due.ts) has not persisted it yet, or is about to. */
export function isDue(row: InvoiceRow, now: Date): boolean {
  return (row.status === "open" || row.status === "processing") && row.expiresAt.getTime() <= now.getTime();
}

/**
 * The fields an invoice takes when it expires. It changed at `expiresAt`, whenever the sweep writes it: both
 * `expiredAt` and `updatedAt` are `expiresAt`, so a read before the sweep and one after it are identical.
 */
export function expiredFields(row: InvoiceRow): Pick<InvoiceRow, "status" | "statusDetail" | "expiredAt" | "updatedAt"> {
  return { status: "expired", statusDetail: isPositive(row.amountPaid) ? "partially_paid" : null, expiredAt: row.expiresAt, updatedAt: row.expiresAt };
}

/** The invoice as it is at `now`: a due one reads as expired before the sweep writes it, never as a stale `open`. */
export function effectiveInvoice(row: InvoiceRow, now: Date): InvoiceRow {
  return isDue(row, now) ? { ...row, ...expiredFields(row) } : row;
}

/** Whether a new or newly confirmed payment may attach: not void, and not expired longer than the grace period ago. */
export function acceptsPayments(row: InvoiceRow, now: Date, graceMs: number): boolean {
  if (row.status === "void") return false;
  if (row.status === "expired") return now.getTime() < row.expiresAt.getTime() + graceMs;
  return true;
}

export interface Settlement {
  status: InvoiceStatus;
  statusDetail: InvoiceStatusDetail | null;
  paidAt: Date | null;
}

/**
 * The state after the attached payments' sums changed to `paid` (confirmed) and `pending`. `row` is the
 * effective invoice (expired when due). Paid stays paid: a later payment can only make it `overpaid`; a void
 * invoice stays void (only failed payments reach it).
 */
export function settle(row: InvoiceRow, paid: string, pending: string, now: Date): Settlement {
  const keep = { status: row.status, statusDetail: row.statusDetail, paidAt: row.paidAt };
  if (row.status === "void") return keep;
  const over = compareDecimals(paid, row.amount) > 0;
  if (row.status === "paid") {
    return row.statusDetail === null && over ? { ...keep, statusDetail: "overpaid" } : keep;
  }
  if (compareDecimals(paid, row.amount) >= 0) {
    // Late first: whether to fulfil at the old price is the merchant's first question; the amounts show the overpayment.
    return { status: "paid", statusDetail: row.status === "expired" ? "paid_late" : over ? "overpaid" : null, paidAt: now };
  }
  const partial = isPositive(paid) ? "partially_paid" : null;
  if (row.status === "expired") return { status: "expired", statusDetail: partial, paidAt: null };
  const covered = compareDecimals(addDecimals(paid, pending), row.amount) >= 0;
  return { status: covered ? "processing" : "open", statusDetail: partial, paidAt: null };
}

