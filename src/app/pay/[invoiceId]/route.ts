import { newId } from "@/lib/ids";
import { clientIp } from "@/server/net/client-ip";
import { pageLocale } from "@/server/checkout/locale";
import { CHECKOUT_HEADERS, renderCheckoutBusy, renderCheckoutNotFound, renderCheckoutPage } from "@/server/checkout/render-page";
import { rateLimitChecks } from "@/server/http/rate-limit";
import { CHECKOUT_LIMIT, rateLimitsFor } from "@/server/rate-limit/limits";
import { getRuntime } from "@/server/runtime";
import { createServiceContext } from "@/server/services/create-context";
import { isServiceError, RateLimitedError } from "@/server/services/errors";
import { getCheckout } from "@/server/services/invoices/get-checkout";

export const dynamic = "force-dynamic";

// GET /pay/{invoiceId} – the public checkout page of one invoice (docs/invoices.md), server-rendered HTML.
// Counted like the REST routes without a key: the per-IP default, and the checkout budget it shares with the
// status the page polls (GET /api/v1/checkout/{id}). In the payer's language: `?lang=`, else Accept-Language.
export async function GET(request: Request, context: { params: Promise<{ invoiceId: string }> }): Promise<Response> {
  const { invoiceId } = await context.params;
  const runtime = await getRuntime();
  const ip = clientIp(request, runtime.env.TRUSTED_PROXY_HOPS);
  const locale = pageLocale(request);
  const headers = { ...CHECKOUT_HEADERS, "content-language": locale.language };
  try {
    const actor = { type: "anonymous", ip } as const;
    await rateLimitsFor(runtime).consume(rateLimitChecks(runtime, { rateLimit: CHECKOUT_LIMIT }, actor, ip));
    const checkout = await getCheckout({ ctx: createServiceContext(runtime, actor, newId("request")), input: { id: invoiceId } });
    return new Response(await renderCheckoutPage(checkout, locale), { status: 200, headers });
  } catch (error) {
    if (error instanceof RateLimitedError) {
      return new Response(renderCheckoutBusy(error.retryAfterSeconds, locale), { status: 429, headers: { ...headers, ...error.options.headers } });
    }
    if (isServiceError(error) && (error.code === "not_found" || error.code === "validation_failed")) {
      return new Response(renderCheckoutNotFound(locale), { status: 404, headers });
    }
    throw error;
  }
}
