import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CheckoutView } from "@/components/checkout/checkout-view";
import { getRuntime } from "@/server/runtime";
import { createServiceContext } from "@/server/services/create-context";
import { isServiceError } from "@/server/services/errors";
import { getCheckout, type Checkout } from "@/server/services/invoices/get-checkout";
import { newId } from "@/lib/ids";

export const dynamic = "force-dynamic";
// The invoice id is a capability: keep it out of Referer headers sent to any link on the page.
export const metadata: Metadata = { title: "Checkout", referrer: "no-referrer", robots: { index: false, follow: false } };

/** The public checkout page of one invoice (docs/invoices.md): server-rendered, then kept live by polling. */
export default async function CheckoutPage({ params }: { params: Promise<{ invoiceId: string }> }) {
  const { invoiceId } = await params;
  const runtime = await getRuntime();
  let checkout: Checkout;
  try {
    checkout = await getCheckout({ ctx: createServiceContext(runtime, { type: "anonymous" }, newId("request")), input: { id: invoiceId } });
  } catch (error) {
    if (isServiceError(error) && (error.code === "not_found" || error.code === "validation_failed")) notFound();
    throw error;
  }
  return <CheckoutView initial={checkout} />;
}
