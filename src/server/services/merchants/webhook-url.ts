import { checkWebhookUrl } from "@/server/webhooks/ssrf-guard";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";

/**
 * Checks a webhook URL a merchant gives us (register, profile update) with the webhooks' SSRF guard and
 * throws 422 `webhook_url_rejected` with the reason when it is unusable: not https, credentials in it, or a
 * host that resolves to a loopback/private/link-local/… address.
 *
 * A host that does not resolve (yet) is accepted: merchants often save the URL before its DNS exists, and
 * every delivery attempt runs the same guard again before connecting (error class `dns` or `blocked`).
 */
export async function assertUsableWebhookUrl(ctx: ServiceContext, input: string): Promise<void> {
  const result = await checkWebhookUrl(input, { allowPrivateTargets: ctx.env.WEBHOOK_ALLOW_PRIVATE_TARGETS });
  if (!result.ok && result.reason !== "unresolvable_host") {
    throw new ServiceError("webhook_url_rejected", result.message);
  }
}
