import { isSEPACountry } from "ibantools";
import { compareDecimals } from "@/lib/money";

/**
 * The text of an EPC069-12 "GiroCode" QR (version 002, UTF-8): a SEPA credit transfer in euros that a banking app
 * fills in from a scan. Lines, in this order, separated by LF: service tag `BCD`, version `002`, character set `1`
 * (UTF-8), identification `SCT`, BIC (optional in version 002), beneficiary name (≤ 70), IBAN, amount `EUR…`
 * (0.01 … 999999999.99), purpose (empty), structured reference (empty: the two references exclude each other),
 * unstructured remittance text (≤ 140: the invoice id). The whole payload is at most 331 bytes.
 */
export interface EpcInput {
  accountHolder: string;
  iban: string;
  bic: string | null;
  /** Euros with at most two decimals, as the invoice's exact decimal string. */
  amount: string;
  /** The invoice id, the reference the merchant matches the transfer by. */
  reference: string;
}

export const EPC_MAX_NAME = 70;
const EPC_MAX_AMOUNT = "999999999.99";
const EPC_MAX_BYTES = 331;

/** Whether an EPC QR can carry this transfer: a SEPA IBAN and an amount the standard allows. */
export function epcApplies(iban: string, currency: string, amount: string): boolean {
  if (currency !== "EUR" || !isSEPACountry(iban.slice(0, 2))) return false;
  const decimals = amount.split(".")[1]?.length ?? 0;
  return decimals <= 2 && compareDecimals(amount, "0.01") >= 0 && compareDecimals(amount, EPC_MAX_AMOUNT) <= 0;
}

export function epcPayload(input: EpcInput): string {
  const lines = ["BCD", "002", "1", "SCT", input.bic ?? "", input.accountHolder, input.iban, `EUR${input.amount}`, "", "", input.reference];
  const payload = lines.join("\n");
  if (new TextEncoder().encode(payload).length > EPC_MAX_BYTES) throw new Error("EPC payload longer than 331 bytes");
  return payload;
}
