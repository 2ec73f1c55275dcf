import { eq } from "drizzle-orm";
import { z } from "zod";
import { isId } from "@/lib/ids";
import { remainingDecimal } from "@/lib/money";
import { invoices, merchants } from "@/server/db/schema";
import type { ServiceContext } from "../context";
import { NotFoundError } from "../errors";
import { fetchPaymentMethods } from "../payment-methods/fetch";
import { checkoutMethodSchema, offeredMethods } from "../payment-methods/offer";
import { validateInput } from "../validate";
import { invoiceIdInput, invoiceSchema, toInvoice } from "./schemas";
import { effectiveInvoice } from "./status";

/**
 * What the public checkout page shows, and nothing more of the merchant (docs/invoices.md): no orderId,
 * metadata or other invoices. `returnUrl` only once the payer is done (paid, expired or void); the payment
 * methods only while the invoice is `open`, and only those that can pay it.
 */
export const checkoutSchema = invoiceSchema
  .pick({
    id: true,
    amount: true,
    currency: true,
    amountPaid: true,
    amountPending: true,
    amountRefunded: true,
    amountRemaining: true,
    status: true,
    statusDetail: true,
    description: true,
    expiresAt: true,
    paidAt: true,
    returnUrl: true,
  })
  .extend({
    merchantName: z.string(),
    merchantWebsite: z.string().nullable().describe("The merchant's website (profile): the contact the page gives a payer who needs help."),
    amountDue: z.string().describe("What the payer still has to send: `amountRemaining` minus `amountPending`, never below zero."),
    livemode: z.boolean().describe("false for an invoice made with a test key (docs/test-mode.md): the page says no real money moves."),
    paymentMethods: z
      .array(checkoutMethodSchema)
      .describe("The merchant's published methods of the invoice's mode that can pay it, while it is `open` (else `[]`)."),
    paymentInstructions: z.string().nullable().describe("The merchant's profile note, plain text, shown under the methods."),
    serverTime: z.iso.datetime().describe("The server's clock, so the countdown does not trust the payer's."),
  })
  .meta({ id: "Checkout" });
export type Checkout = z.infer<typeof checkoutSchema>;

/**
 * An invoice's checkout by its id alone: there is no merchant in `ctx`, the unguessable id is the capability
 * (src/lib/ids.ts draws 80 random bits per invoice id). Unknown and malformed ids are one 404.
 */
export async function getCheckout({ ctx, input }: { ctx: ServiceContext; input: { id: string } }): Promise<Checkout> {
  const { id } = validateInput(invoiceIdInput, input, "params");
  if (!isId("invoice", id)) throw new NotFoundError("invoice");
  const [found] = await ctx.db
    .select({ invoice: invoices, merchantName: merchants.name, merchantWebsite: merchants.website, paymentInstructions: merchants.paymentInstructions })
    .from(invoices)
    .innerJoin(merchants, eq(merchants.id, invoices.merchantId))
    .where(eq(invoices.id, id))
    .limit(1);
  if (!found) throw new NotFoundError("invoice");
  const now = ctx.now();
  const invoice = toInvoice(effectiveInvoice(found.invoice, now), ctx.env.PUBLIC_BASE_URL);
  const done = invoice.status === "paid" || invoice.status === "expired" || invoice.status === "void";
  const amountDue = remainingDecimal(invoice.amountRemaining, invoice.amountPending);
  const scope = { merchantId: found.invoice.merchantId, livemode: found.invoice.livemode };
  const methods = invoice.status === "open" ? await fetchPaymentMethods(ctx.db, scope) : [];
  return {
    id: invoice.id,
    merchantName: found.merchantName,
    merchantWebsite: found.merchantWebsite,
    livemode: found.invoice.livemode,
    description: invoice.description,
    amount: invoice.amount,
    currency: invoice.currency,
    amountPaid: invoice.amountPaid,
    amountPending: invoice.amountPending,
    amountRefunded: invoice.amountRefunded,
    amountRemaining: invoice.amountRemaining,
    amountDue,
    status: invoice.status,
    statusDetail: invoice.statusDetail,
    expiresAt: invoice.expiresAt,
    paidAt: invoice.paidAt,
    returnUrl: done ? invoice.returnUrl : null,
    paymentMethods: offeredMethods(methods, { invoiceId: invoice.id, currency: invoice.currency, amountDue, merchantName: found.merchantName }),
    paymentInstructions: found.paymentInstructions,
    serverTime: now.toISOString(),
  };
}
