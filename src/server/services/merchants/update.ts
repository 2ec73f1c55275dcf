import { eq } from "drizzle-orm";
import { merchants } from "@/server/db/schema";
import { withTransaction } from "@/server/db/transaction";
import { auditChanges } from "../audit/changes";
import { recordAudit } from "../audit/record";
import { inTransaction, requireSettingsWriter, type ServiceContext } from "../context";
import { validateInput } from "../validate";
import { NotFoundError } from "../errors";
import { getMerchantRow } from "./get";
import { merchantIdInput, toMerchant, updateMerchantInput, type UpdateMerchantInput } from "./schemas";
import { followWebhookUrlChange } from "../webhooks/follow-url-change";
import { assertUsableWebhookUrl } from "./webhook-url";
import { getDefaultEndpoint } from "../webhook-endpoints/fetch";
import { profileToDefaultEndpoint } from "../webhook-endpoints/default";

const FIELDS = ["name", "website", "webhookUrl", "webhookEvents", "paymentInstructions"] as const;

/**
 * Updates the context's own merchant (another id → 404). Only fields that actually change are written
 * and named in the audit entry; a request that changes nothing writes nothing.
 */
export async function updateMerchant({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { id: string } & UpdateMerchantInput;
}) {
  const merchantId = requireSettingsWriter(ctx);
  const { id, ...fields } = input;
  if (validateInput(merchantIdInput, { id }).id !== merchantId) throw new NotFoundError("merchant");
  const data = validateInput(updateMerchantInput, fields);
  // Outside the transaction: the SSRF guard may resolve DNS, which must not hold a connection.
  if (data.webhookUrl) await assertUsableWebhookUrl(ctx, data.webhookUrl);

  return withTransaction(ctx.db, async (tx) => {
    const current = await getMerchantRow(tx, merchantId, { forUpdate: true });
    const changed = FIELDS.filter((field) => data[field] !== undefined && !sameValue(data[field], current[field]));
    if (changed.length === 0) return toMerchant(current);
    const [row] = await tx
      .update(merchants)
      .set({ ...Object.fromEntries(changed.map((field) => [field, data[field]])), updatedAt: ctx.now() })
      .where(eq(merchants.id, merchantId))
      .returning();
    if (changed.includes("webhookUrl") || changed.includes("webhookEvents")) {
      // The profile's webhook settings are the default endpoint's (webhook-endpoints/default.ts).
      const endpoint = await getDefaultEndpoint(tx, merchantId, { forUpdate: true });
      await profileToDefaultEndpoint(tx, {
        merchantId,
        ...(changed.includes("webhookUrl") ? { url: row!.webhookUrl } : {}),
        ...(changed.includes("webhookEvents") ? { eventTypes: row!.webhookEvents } : {}),
        now: ctx.now(),
      });
      if (changed.includes("webhookUrl")) await followWebhookUrlChange(tx, { merchantId, endpointId: endpoint.id, url: row!.webhookUrl, now: ctx.now() });
    }
    await recordAudit({
      ctx: inTransaction(ctx, tx),
      input: { action: "merchant.updated", targetType: "merchant", targetId: merchantId, merchantId, details: auditChanges(current, row!, changed) },
    });
    return toMerchant(row!);
  });
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
