import { and, eq } from "drizzle-orm";
import { isId } from "@/lib/ids";
import { events, webhookDeliveries } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import { NotFoundError } from "../errors";

import type { MerchantScope } from "../context";
/**
 * One of the merchant's deliveries of the mode with its event, or 404 — for another merchant's or mode's id too, so existence
 * never leaks. `forUpdate` locks the delivery row for a state change.
 */
export async function getDeliveryForMerchant(
  db: Executor,
  { merchantId, livemode }: MerchantScope,
  id: string,
  options: { forUpdate?: boolean } = {},
) {
  if (!isId("delivery", id)) throw new NotFoundError("delivery");
  const query = db
    .select({ delivery: webhookDeliveries, event: events })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.merchantId, merchantId), eq(webhookDeliveries.livemode, livemode)));
  const [row] = options.forUpdate ? await query.for("update", { of: webhookDeliveries }) : await query;
  if (!row) throw new NotFoundError("delivery");
  return row;
}
