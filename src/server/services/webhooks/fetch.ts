import { and, eq } from "drizzle-orm";
import { isId } from "@/lib/ids";
import { events, webhookDeliveries } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import { NotFoundError } from "../errors";

/**
 * One of the merchant's deliveries with its event, or 404 — for another merchant's id too, so existence
 * never leaks. `forUpdate` locks the delivery row for a state change.
 */
export async function getDeliveryForMerchant(
  db: Executor,
  merchantId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
) {
  if (!isId("delivery", id)) throw new NotFoundError("delivery");
  const query = db
    .select({ delivery: webhookDeliveries, event: events })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.merchantId, merchantId)));
  const [row] = options.forUpdate ? await query.for("update", { of: webhookDeliveries }) : await query;
  if (!row) throw new NotFoundError("delivery");
  return row;
}
