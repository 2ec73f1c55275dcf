import { z } from "zod";
import { isFiatCurrency } from "@/lib/currencies";
import { epcApplies, epcPayload } from "@/lib/payment-methods/epc-qr";
import { paymentUri } from "@/lib/payment-methods/payment-uris";
import { paymentMethodVariants, type PaymentMethod } from "./schemas";

const qrPayload = z
  .string()
  .nullable()
  .describe("The text of the QR code the page shows: an EPC GiroCode for a SEPA transfer in EUR, the BIP21 / EIP-681 / Solana Pay URI of a crypto method, with the amount due; null when there is none.");

/** A published method as a payer sees it on one invoice: the method and its QR code's text. */
const [bankTransfer, crypto, link] = paymentMethodVariants;
export const checkoutMethodSchema = z
  .discriminatedUnion("type", [bankTransfer.extend({ qrPayload }), crypto.extend({ qrPayload }), link.extend({ qrPayload })])
  .meta({ id: "CheckoutMethod" });
export type CheckoutMethod = z.infer<typeof checkoutMethodSchema>;

export interface OfferContext {
  invoiceId: string;
  currency: string;
  /** What the payer still has to send: remaining minus what is pending. */
  amountDue: string;
  merchantName: string;
}

/**
 * The methods a payer can use for one invoice, with their QR payloads (docs/invoices.md, "Payment methods"):
 * bank transfers for invoices in a fiat currency (a GiroCode when it is a SEPA transfer in EUR), a crypto
 * method for invoices in its own asset only (the service never converts, so the URI's amount is exact), and
 * processor links always.
 */
export function offeredMethods(methods: PaymentMethod[], offer: OfferContext): CheckoutMethod[] {
  return methods.flatMap((method): CheckoutMethod[] => {
    switch (method.type) {
      case "bank_transfer": {
        if (!isFiatCurrency(offer.currency)) return [];
        const qr = epcApplies(method.iban, offer.currency, offer.amountDue)
          ? epcPayload({ ...method, amount: offer.amountDue, reference: offer.invoiceId })
          : null;
        return [{ ...method, qrPayload: qr }];
      }
      case "crypto":
        if (method.asset !== offer.currency) return [];
        return [{ ...method, qrPayload: paymentUri({ ...method, amount: offer.amountDue, reference: offer.invoiceId, label: offer.merchantName }) }];
      case "link":
        return [{ ...method, qrPayload: null }];
    }
  });
}
