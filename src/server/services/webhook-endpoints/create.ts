import { count, eq } from "drizzle-orm";
import { newId } from "@/lib/ids";
import { merchants, webhookEndpoints } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { recordAudit } from "../audit/record";
import { inTransaction, livemodeOf, requireMerchantWriter, type ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { assertUsableWebhookUrl } from "../merchants/webhook-url";
import { validateInput } from "../validate";
import { createWebhookSecret } from "../webhook-secrets/create";
import { MAX_ENDPOINTS_PER_MERCHANT } from "./limits";
import { createEndpointInput, toEndpoint, type CreateEndpointInput } from "./schemas";

/** Adds a webhook endpoint with a signing secret of its own, returned in plaintext this once. */
export async function createEndpoint({ ctx, input }: { ctx: ServiceContext; input: CreateEndpointInput }) {
  const merchantId = requireMerchantWriter(ctx);
  const data = validateInput(createEndpointInput, input, "body");
  // Outside the transaction: the SSRF guard may resolve DNS, which must not hold a connection.
  await assertUsableWebhookUrl(ctx, data.url);
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    // Serialises the merchant's endpoint creations, so the limit holds under concurrent requests.
    await tx.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, merchantId)).for("update");
    const [existing] = await tx.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.merchantId, merchantId));
    if ((existing?.n ?? 0) >= MAX_ENDPOINTS_PER_MERCHANT) {
      throw new ServiceError("too_many_endpoints", `A merchant has at most ${MAX_ENDPOINTS_PER_MERCHANT} webhook endpoints. Delete one first.`);
    }
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        id: newId("webhookEndpoint"),
        merchantId,
        // A test key's (or the dashboard's test mode's) endpoint receives test events only (docs/test-mode.md).
        livemode: livemodeOf(ctx),
        url: data.url,
        description: data.description ?? null,
        eventTypes: data.eventTypes ?? null,
        status: data.enabled ? "enabled" : "disabled",
        disabledReason: data.enabled ? null : "manual",
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const txCtx = inTransaction(ctx, tx);
    const secret = await createWebhookSecret({ ctx: txCtx, input: { endpointId: row!.id } });
    await recordAudit({
      ctx: txCtx,
      input: { action: "webhook_endpoint.created", targetType: "webhook_endpoint", targetId: row!.id, merchantId },
    });
    return { endpoint: toEndpoint(row!), secret };
  });
}
