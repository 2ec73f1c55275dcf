import { and, eq, or, sql } from "drizzle-orm";
import { decimalsEqual } from "@/lib/money";
import { payments, refunds } from "@/server/db/schema";
import type { NewReportLine } from "@/server/db/sql/reconciliation-lines";
import type { Executor } from "@/server/db/types";
import type { FileLine, SettlementLine } from "./read-settlement-file";
import type { MerchantScope } from "../context";

type LedgerPayment = { id: string; externalId: string; reference: string | null; amount: string; currency: string };
export type NewLine = NewReportLine;

/**
 * Compares one batch of file lines with the merchant's payments, found with one indexed query (by
 * externalId, or by reference for lines without one). Amounts are compared exactly as decimals (no floats). Duplicates across batches are
 * found afterwards in SQL (finish.ts).
 */
export async function matchLines(db: Executor, { merchantId, livemode }: MerchantScope, lines: FileLine[]): Promise<NewLine[]> {
  const refundLines = lines.flatMap((line) => (line.ok && line.line.kind === "refund" ? [line.line] : []));
  const refundsByExternalId = new Map((await findRefunds(db, { merchantId, livemode }, refundLines.map((line) => line.externalId!))).map((refund) => [refund.externalId, refund]));
  const readable = lines.flatMap((line) => (line.ok && line.line.kind === "payment" ? [line.line] : []));
  const externalIds = readable.flatMap((line) => (line.externalId !== null ? [line.externalId] : []));
  const references = readable.flatMap((line) => (line.externalId === null && line.reference !== null ? [line.reference] : []));
  const found = await findPayments(db, { merchantId, livemode }, externalIds, references);
  const byExternalId = new Map(found.map((payment) => [payment.externalId, payment]));
  const byReference = new Map<string, LedgerPayment[]>();
  for (const payment of found) {
    if (payment.reference !== null) byReference.set(payment.reference, [...(byReference.get(payment.reference) ?? []), payment]);
  }
  return lines.map((line) => {
    if (!line.ok) return { ...EMPTY, lineNumber: line.lineNumber, status: "malformed", reason: line.reason };
    if (line.line.kind === "refund") return compareRefund(line.line, refundsByExternalId.get(line.line.externalId!));
    const candidates = line.line.externalId !== null
      ? [byExternalId.get(line.line.externalId)].filter((payment) => payment !== undefined)
      : (byReference.get(line.line.reference!) ?? []);
    return compare(line.line, candidates);
  });
}

const EMPTY: NewLine = {
  lineNumber: null, status: "malformed", kind: "payment", reason: null, externalId: null, reference: null, fileAmount: null, fileCurrency: null,
  fee: null, settledAt: null, paymentId: null, refundId: null, ledgerAmount: null, ledgerCurrency: null,
};

type LedgerRefund = { id: string; externalId: string | null; paymentId: string; amount: string; currency: string };

/**
 * A refund line against the merchant's recorded refund with its `externalId` (docs/refunds.md, "Reconciliation"):
 * matched when amount and currency agree. Only a succeeded or pending refund is money that went out; a failed or
 * canceled one named by the processor is a mismatch (`status`).
 */
function compareRefund(line: SettlementLine, refund: LedgerRefund & { status?: string } | undefined): NewLine {
  const fromFile: NewLine = {
    ...EMPTY, kind: "refund", lineNumber: line.lineNumber, externalId: line.externalId, reference: line.reference,
    fileAmount: line.amount, fileCurrency: line.currency, fee: line.fee, settledAt: line.settledAt,
  };
  if (!refund) return { ...fromFile, status: "missingInLedger" };
  const withRefund = { ...fromFile, refundId: refund.id, paymentId: refund.paymentId, ledgerAmount: refund.amount, ledgerCurrency: refund.currency };
  if (refund.currency !== line.currency) return { ...withRefund, status: "mismatched", reason: "currency" };
  if (!decimalsEqual(line.amount, refund.amount)) return { ...withRefund, status: "mismatched", reason: "amount" };
  if (refund.status === "failed" || refund.status === "canceled") return { ...withRefund, status: "mismatched", reason: "status" };
  return { ...withRefund, status: "matched" };
}

async function findRefunds(db: Executor, { merchantId, livemode }: MerchantScope, externalIds: string[]) {
  if (externalIds.length === 0) return [];
  return db
    .select({ id: refunds.id, externalId: refunds.externalId, paymentId: refunds.paymentId, amount: refunds.amount, currency: refunds.currency, status: refunds.status })
    .from(refunds)
    .where(
      and(
        eq(refunds.merchantId, merchantId),
        eq(refunds.livemode, livemode),
        sql`${refunds.externalId} in (select jsonb_array_elements_text(${JSON.stringify(externalIds)}::jsonb))`,
      ),
    );
}

function compare(line: SettlementLine, candidates: LedgerPayment[]): NewLine {
  const fromFile: NewLine = {
    ...EMPTY,
    lineNumber: line.lineNumber,
    externalId: line.externalId,
    reference: line.reference,
    fileAmount: line.amount,
    fileCurrency: line.currency,
    fee: line.fee,
    settledAt: line.settledAt,
  };
  if (candidates.length === 0) return { ...fromFile, status: "missingInLedger" };
  if (candidates.length > 1) return { ...fromFile, status: "mismatched", reason: "ambiguous_reference" };
  const payment = candidates[0]!;
  const withPayment = {
    ...fromFile,
    externalId: payment.externalId,
    reference: line.reference ?? payment.reference,
    paymentId: payment.id,
    ledgerAmount: payment.amount,
    ledgerCurrency: payment.currency,
  };
  if (payment.currency !== line.currency) return { ...withPayment, status: "mismatched", reason: "currency" };
  // Exact digits: "10.1" equals "10.10", and a file amount with more decimals than the currency has cannot be equal.
  if (!decimalsEqual(line.amount, payment.amount)) return { ...withPayment, status: "mismatched", reason: "amount" };
  return { ...withPayment, status: "matched" };
}

// The keys travel as one JSON parameter: a thousand bound parameters cost more to build than the query.
async function findPayments(db: Executor, { merchantId, livemode }: MerchantScope, externalIds: string[], references: string[]): Promise<LedgerPayment[]> {
  if (externalIds.length === 0 && references.length === 0) return [];
  const keys = [
    ...(externalIds.length > 0 ? [sql`${payments.externalId} in (select jsonb_array_elements_text(${JSON.stringify(externalIds)}::jsonb))`] : []),
    ...(references.length > 0 ? [sql`${payments.reference} in (select jsonb_array_elements_text(${JSON.stringify(references)}::jsonb))`] : []),
  ];
  return db
    .select({ id: payments.id, externalId: payments.externalId, reference: payments.reference, amount: payments.amount, currency: payments.currency })
    .from(payments)
    .where(and(eq(payments.merchantId, merchantId), eq(payments.livemode, livemode), or(...keys)));
}
