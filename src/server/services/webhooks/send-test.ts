import { newId } from "@/lib/ids";
import { events, webhookDeliveries } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { attemptDelivery, withSigningSecrets } from "@/server/webhooks/attempt";
import { checkWebhookUrl } from "@/server/webhooks/ssrf-guard";
import { WORKER_DEFAULTS } from "@/server/webhooks/worker";
import { livemodeOf, requireMerchantId, type ServiceContext } from "../context";
import { validateInput } from "../validate";
import { getDefaultEndpoint, getEndpointForMerchant, oldestTestEndpoint } from "../webhook-endpoints/fetch";
import { disableEndpoint } from "../webhook-endpoints/state";
import { sendTestWebhookInput, type SendTestWebhookInput } from "./schemas";

const SNIPPET_CHARS = 1_000;

/**
 * Checks a webhook URL (the given one, or the endpoint's: the given endpoint, or the default one) and, unless `dryRun`, sends a signed
 * `webhook.test` event to it now and reports what came back. The send is recorded as a delivery with
 * trigger `test`, visible with its attempt like any other; it is not retried on a schedule.
 */
export async function sendTestWebhook({ ctx, input }: { ctx: ServiceContext; input: SendTestWebhookInput }) {
  const merchantId = requireMerchantId(ctx);
  // Recorded in the caller's mode: a test key's test send is in its own delivery list, not the live one.
  const livemode = livemodeOf(ctx);
  const { url: givenUrl, endpointId, dryRun } = validateInput(sendTestWebhookInput, input, "body");
  const notSent = { delivered: false, statusCode: null, latencyMs: null, errorClass: null, responseSnippet: null, deliveryId: null };

  // The endpoint signs the test with its secret and counts it as its delivery (in flight, not in its health).
  // Without an endpoint named: the default endpoint in live mode, the oldest test endpoint in test mode.
  const endpoint = endpointId
    ? await getEndpointForMerchant(ctx.db, { merchantId, livemode }, endpointId)
    : livemode
      ? await getDefaultEndpoint(ctx.db, merchantId)
      : await oldestTestEndpoint(ctx.db, merchantId);
  if (!endpoint) {
    return { url: null, usable: false, reason: "no_webhook_url" as const, message: "No test endpoint: add one in test mode first.", ...notSent };
  }
  const url = givenUrl ?? endpoint.url ?? null;
  if (url === null) {
    return { url, usable: false, reason: "no_webhook_url" as const, message: "No URL given and no webhook URL configured.", ...notSent };
  }
  const check = await checkWebhookUrl(url, { allowPrivateTargets: ctx.env.WEBHOOK_ALLOW_PRIVATE_TARGETS });
  if (!check.ok) return { url, usable: false, reason: check.reason, message: check.message, ...notSent };
  if (dryRun) return { url: check.url, usable: true, reason: null, message: null, ...notSent };

  const now = ctx.now();
  // Written already claimed (`delivering`, under a lease) so no worker picks it up while this request sends it.
  const { claimed, event } = await withTransaction(ctx.db, async (tx) => {
    const [event] = await tx
      .insert(events)
      .values({
        id: newId("event"),
        merchantId,
        livemode,
        type: "webhook.test",
        data: { message: "A test webhook from Merchant Payments. No action is needed.", merchantId },
        createdAt: now,
      })
      .returning();
    const [delivery] = await tx
      .insert(webhookDeliveries)
      .values({
        id: newId("delivery"),
        merchantId,
        livemode,
        eventId: event!.id,
        eventCreatedAt: event!.createdAt,
        endpointId: endpoint.id,
        url: check.url,
        status: "delivering",
        nextTrigger: "test",
        nextAttemptAt: now,
        leaseExpiresAt: new Date(now.getTime() + WORKER_DEFAULTS.leaseMs),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return { claimed: delivery!, event: event! };
  });
  const deps = {
    db: ctx.db,
    log: ctx.log,
    now: ctx.now,
    schedule: ctx.env.WEBHOOK_RETRY_SCHEDULE,
    allowPrivateTargets: ctx.env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    authSecret: ctx.env.AUTH_SECRET,
    signingKeys: ctx.env.WEBHOOK_SIGNING_KEY,
    // Never called for a test send, which does not count towards its endpoint's health (record.ts).
    disableEndpoint,
  };
  const [loaded] = await withSigningSecrets(deps, [{ delivery: { ...claimed, leaseExpiresAt: claimed.leaseExpiresAt! }, event }]);
  if (!loaded) throw new Error(`Test send ${claimed.id} has no signing secret`);
  const { outcome } = await attemptDelivery(deps, loaded);
  return {
    url: check.url,
    usable: true,
    reason: null,
    message: outcome.ok ? null : outcome.errorMessage,
    delivered: outcome.ok,
    statusCode: outcome.statusCode,
    latencyMs: outcome.latencyMs,
    errorClass: outcome.errorClass,
    responseSnippet: outcome.responseBody === null ? null : outcome.responseBody.slice(0, SNIPPET_CHARS),
    deliveryId: claimed.id,
  };
}
