import { newId } from "@/lib/ids";
import { CHECKOUT_HEADERS, renderCheckoutNotFound, renderCheckoutPage } from "@/server/checkout/render-page";
import { getRuntime } from "@/server/runtime";
import { createServiceContext } from "@/server/services/create-context";
import { isServiceError } from "@/server/services/errors";
import { getCheckout } from "@/server/services/invoices/get-checkout";

export const dynamic = "force-dynamic";

// GET /pay/{invoiceId} – the public checkout page of one invoice (docs/invoices.md), server-rendered HTML
export async function GET(_request: Request, context: { params: Promise<{ invoiceId: string }> }): Promise<Response> {
  const { invoiceId } = await context.params;
  const runtime = await getRuntime();
  try {
    const checkout = await getCheckout({ ctx: createServiceContext(runtime, { type: "anonymous" }, newId("request")), input: { id: invoiceId } });
    return new Response(renderCheckoutPage(checkout), { status: 200, headers: CHECKOUT_HEADERS });
  } catch (error) {
    if (isServiceError(error) && (error.code === "not_found" || error.code === "validation_failed")) {
      return new Response(renderCheckoutNotFound(), { status: 404, headers: CHECKOUT_HEADERS });
    }
    throw error;
  }
}
