import { and, asc, eq } from "drizzle-orm";
import { isId } from "@/lib/ids";
import { webhookEndpoints, type WebhookEndpointRow } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import type { MerchantScope } from "../context";
import { NotFoundError } from "../errors";

/**
 * One of the merchant's endpoints of the mode (docs/test-mode.md), or 404 — for another merchant's or mode's id too,
 * so existence never leaks.
 * `forUpdate` locks the row: changes to one endpoint (its URL, its secret, its state) are made one at a time.
 */
export async function getEndpointForMerchant(
  db: Executor,
  { merchantId, livemode }: MerchantScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<WebhookEndpointRow> {
  if (!isId("webhookEndpoint", id)) throw new NotFoundError("webhook endpoint");
  const query = db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.merchantId, merchantId), eq(webhookEndpoints.livemode, livemode)));
  const [row] = options.forUpdate ? await query.for("update") : await query;
  if (!row) throw new NotFoundError("webhook endpoint");
  return row;
}

/** The merchant's oldest test endpoint, or undefined: where a test-mode test send goes when none is named. */
export async function oldestTestEndpoint(db: Executor, merchantId: string): Promise<WebhookEndpointRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.merchantId, merchantId), eq(webhookEndpoints.livemode, false)))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id))
    .limit(1);
  return row;
}

/** The merchant's default endpoint (every merchant has one: docs/webhooks.md, "Endpoints"); it is a live endpoint. */
export async function getDefaultEndpoint(db: Executor, merchantId: string, options: { forUpdate?: boolean } = {}): Promise<WebhookEndpointRow> {
  const query = db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.merchantId, merchantId), eq(webhookEndpoints.isDefault, true)));
  const [row] = options.forUpdate ? await query.for("update") : await query;
  if (!row) throw new NotFoundError("webhook endpoint");
  return row;
}
