import { and, eq } from "drizzle-orm";
import { webhookEndpoints } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { auditChanges } from "../audit/changes";
import { recordAudit } from "../audit/record";
import { inTransaction, livemodeOf, requireMerchantWriter, type ServiceContext } from "../context";
import { assertUsableWebhookUrl } from "../merchants/webhook-url";
import { validateInput } from "../validate";
import { followWebhookUrlChange } from "../webhooks/follow-url-change";
import { defaultEndpointToProfile } from "./default";
import { getEndpointForMerchant } from "./fetch";
import { updateEndpointInput, toEndpoint, type UpdateEndpointInput } from "./schemas";
import { disableEndpoint, enableEndpoint } from "./state";

const FIELDS = ["url", "description", "eventTypes"] as const;

/**
 * Changes an endpoint's URL, description or event types, and disables (reason `manual`) or enables it; only
 * what changes is written and audited. Queued deliveries follow a new URL (follow-url-change.ts); enabling sends
 * what waited (state.ts). The default endpoint's URL and event types are the profile's, which follows.
 */
export async function updateEndpoint({ ctx, input }: { ctx: ServiceContext; input: { id: string } & UpdateEndpointInput }) {
  const merchantId = requireMerchantWriter(ctx);
  const livemode = livemodeOf(ctx);
  const { id, ...fields } = input;
  const data = validateInput(updateEndpointInput, fields, "body");
  if (data.url) await assertUsableWebhookUrl(ctx, data.url);
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    let row = await getEndpointForMerchant(tx, { merchantId, livemode }, id, { forUpdate: true });
    const before = { ...row, enabled: row.status === "enabled" };
    const changed: string[] = FIELDS.filter((field) => data[field] !== undefined && JSON.stringify(data[field]) !== JSON.stringify(row[field]));
    if (changed.length > 0) {
      const [updated] = await tx
        .update(webhookEndpoints)
        .set({ ...Object.fromEntries(changed.map((field) => [field, data[field as (typeof FIELDS)[number]]])), updatedAt: now })
        .where(and(eq(webhookEndpoints.id, row.id), eq(webhookEndpoints.merchantId, merchantId)))
        .returning();
      row = updated!;
      if (changed.includes("url")) await followWebhookUrlChange(tx, { merchantId, endpointId: row.id, url: row.url, now });
      await defaultEndpointToProfile(tx, row, now);
    }
    if (data.enabled === false && row.status === "enabled") {
      row = await disableEndpoint(tx, { endpoint: row, reason: "manual", now });
      changed.push("enabled");
    } else if (data.enabled === true && row.status === "disabled") {
      row = await enableEndpoint(tx, { endpoint: row, now });
      changed.push("enabled");
    }
    if (changed.length > 0) {
      await recordAudit({
        ctx: inTransaction(ctx, tx),
        input: { action: "webhook_endpoint.updated", targetType: "webhook_endpoint", targetId: row.id, merchantId, details: auditChanges(before, { ...row, enabled: row.status === "enabled" }, changed as (keyof typeof before & string)[]) },
      });
    }
    return toEndpoint(row);
  });
}
