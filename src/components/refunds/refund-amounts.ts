import { currencyExponent } from "@/lib/currencies";
import { remainingDecimal, withDecimals } from "@/lib/money";
import { refundHolds } from "@/lib/statuses";
import type { RefundView } from "./types";

/**
 * What is still refundable of a payment, from its refunds as the dashboard has them: its amount less those that
 * hold part of it (the server decides under the payment's lock; this only prefills the form).
 */
export function refundableOf(payment: { amount: string; currency: string }, refunds: RefundView[]): string {
  let left = payment.amount;
  for (const refund of refunds) if (refundHolds(refund.status)) left = remainingDecimal(left, refund.amount);
  return withDecimals(left, currencyExponent(payment.currency) ?? 0);
}
