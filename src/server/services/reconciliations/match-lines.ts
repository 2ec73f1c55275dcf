import { and, eq, or, sql } from "drizzle-orm";
import { decimalsEqual } from "@/lib/money";
import { payments, type ReconciliationLineRow } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import type { FileLine, SettlementLine } from "./read-settlement-file";
import type { MerchantScope } from "../context";

type LedgerPayment = { id: string; externalId: string; reference: string | null; amount: string; currency: string };
export type NewLine = Omit<ReconciliationLineRow, "reconciliationId" | "position" | "resolvedAt" | "resolvedBy" | "resolutionNote">;

/**
 * Compares one batch of file lines with the merchant's payments, found with one indexed query (by
 * externalId, or by reference for lines without one). Amounts are compared exactly as decimals (no floats). Duplicates across batches are
 * found afterwards in SQL (finish-reconciliation.ts).
 */
export async function matchLines(db: Executor, { merchantId, livemode }: MerchantScope, lines: FileLine[]): Promise<NewLine[]> {
  const readable = lines.flatMap((line) => (line.ok ? [line.line] : []));
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
    const candidates = line.line.externalId !== null
      ? [byExternalId.get(line.line.externalId)].filter((payment) => payment !== undefined)
      : (byReference.get(line.line.reference!) ?? []);
    return compare(line.line, candidates);
  });
}

const EMPTY: NewLine = {
  lineNumber: null, status: "malformed", reason: null, externalId: null, reference: null, fileAmount: null, fileCurrency: null,
  fee: null, settledAt: null, paymentId: null, ledgerAmount: null, ledgerCurrency: null,
};

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
