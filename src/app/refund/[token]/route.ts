import { newId } from "@/lib/ids";
import { clientIp } from "@/server/net/client-ip";
import { pageLocale, type PageLocale } from "@/server/checkout/locale";
import { CLAIM_HEADERS, renderClaimNotFound, renderClaimPage, type ClaimNotice } from "@/server/checkout/render-claim";
import { renderCheckoutBusy } from "@/server/checkout/render-page";
import { rateLimitChecks } from "@/server/http/rate-limit";
import { CHECKOUT_LIMIT, rateLimitsFor, REFUND_CLAIM_LIMIT } from "@/server/rate-limit/limits";
import { getRuntime, type Runtime } from "@/server/runtime";
import type { Actor } from "@/server/services/context";
import { createServiceContext } from "@/server/services/create-context";
import { requestClient } from "@/server/net/request-client";
import { isServiceError, RateLimitedError } from "@/server/services/errors";
import { claimRefund } from "@/server/services/refunds/claim";
import { getRefundClaim } from "@/server/services/refunds/claim-view";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ token: string }> };

// GET /refund/{token} – the payer's refund claim page (docs/refunds.md, "Claim link"), server-rendered HTML.
// Counted against the checkout's per-IP budget; in the payer's language like the checkout page.
export async function GET(request: Request, context: Context): Promise<Response> {
  return answer(request, context, [CHECKOUT_LIMIT], async (runtime, actor, token, locale) => {
    const view = await getRefundClaim({ ctx: createServiceContext(runtime, actor, newId("request")), input: { token } });
    return page(renderClaimPage(view, locale), 200, locale);
  });
}

// POST /refund/{token} – the claim form: the payer's destination (and network). A second claim or one after expiry
// changes nothing and says why; the page then shows the refund's status.
export async function POST(request: Request, context: Context): Promise<Response> {
  return answer(request, context, [CHECKOUT_LIMIT, REFUND_CLAIM_LIMIT], async (runtime, actor, token, locale) => {
    const ctx = createServiceContext(runtime, actor, newId("request"), requestClient(request, runtime.env.TRUSTED_PROXY_HOPS));
    const form = await request.formData().catch(() => new FormData());
    const destination = String(form.get("destination") ?? "");
    const network = String(form.get("network") ?? "").trim();
    let notice: ClaimNotice | undefined;
    let status = 200;
    try {
      await claimRefund({ ctx, input: { token, destination, network: network || undefined } });
    } catch (error) {
      if (!isServiceError(error) || error.code === "not_found") throw error;
      status = error.status;
      if (error.code === "refund_already_claimed") notice = { kind: "already" };
      else if (error.code === "refund_claim_expired") notice = { kind: "expired" };
      else if (error.code === "validation_failed") notice = { kind: "invalid", problem: error.errors?.map((field) => field.message).join("; ") ?? error.detail };
      else throw error;
    }
    const view = await getRefundClaim({ ctx, input: { token } });
    return page(renderClaimPage(view, locale, { notice, destination: notice?.kind === "invalid" ? destination.slice(0, 200) : undefined }), status, locale);
  });
}

async function answer(
  request: Request,
  context: Context,
  limits: (typeof CHECKOUT_LIMIT)[],
  render: (runtime: Runtime, actor: Actor, token: string, locale: PageLocale) => Promise<Response>,
): Promise<Response> {
  const { token } = await context.params;
  const runtime = await getRuntime();
  const ip = clientIp(request, runtime.env.TRUSTED_PROXY_HOPS);
  const locale = pageLocale(request);
  const actor = { type: "anonymous", ip } as const;
  try {
    for (const limit of limits) await rateLimitsFor(runtime).consume(rateLimitChecks(runtime, { rateLimit: limit }, actor, ip));
    return await render(runtime, actor, token, locale);
  } catch (error) {
    if (error instanceof RateLimitedError) {
      return new Response(renderCheckoutBusy(error.retryAfterSeconds, locale), { status: 429, headers: { ...headersOf(locale), ...error.options.headers } });
    }
    if (isServiceError(error) && (error.code === "not_found" || error.code === "validation_failed")) return page(renderClaimNotFound(locale), 404, locale);
    throw error;
  }
}

function page(html: string, status: number, locale: PageLocale): Response {
  return new Response(html, { status, headers: headersOf(locale) });
}

function headersOf(locale: PageLocale): Record<string, string> {
  return { ...CLAIM_HEADERS, "content-language": locale.language };
}
