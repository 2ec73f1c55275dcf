import { and, asc, eq } from "drizzle-orm";
import { deliveryAttempts } from "@/server/db/schema";
import { recordStaffRead } from "../audit/record-staff-read";
import { requireMerchantScope, type ServiceContext } from "../context";
import { getDeliveryForMerchant } from "./fetch";
import { webhookPayload } from "@/server/webhooks/payload";
import { toAttempt, toDelivery } from "./schemas";

/** One delivery with every attempt and the payload it sends. */
export async function getDelivery({ ctx, input }: { ctx: ServiceContext; input: { id: string } }) {
  const scope = requireMerchantScope(ctx);
  const { merchantId } = scope;
  const { delivery, event } = await getDeliveryForMerchant(ctx.db, scope, input.id);
  await recordStaffRead({ ctx, input: { view: "delivery", target: { type: "delivery", id: delivery.id } } });
  const attempts = await ctx.db
    .select()
    .from(deliveryAttempts)
    .where(and(eq(deliveryAttempts.deliveryId, delivery.id), eq(deliveryAttempts.merchantId, merchantId)))
    .orderBy(asc(deliveryAttempts.sentAt), asc(deliveryAttempts.id));
  return {
    ...toDelivery(delivery, event),
    attempts: attempts.map(toAttempt),
    payload: webhookPayload(event),
  };
}
