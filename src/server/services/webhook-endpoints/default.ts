import { and, eq } from "drizzle-orm";
import { newId } from "@/lib/ids";
import { eventTypes, merchants, webhookEndpoints, type EventType, type WebhookEndpointRow } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";

/*
 * The default endpoint is the round-1 webhook setting (docs/webhooks.md, "Endpoints"): the profile's `webhookUrl`
 * and `webhookEvents` are its URL and event types, and the registration secret is its secret. The merchant row
 * keeps both fields for the profile; every change to either side writes the other in the same transaction.
 */

/** Creates the merchant's default endpoint (registration). */
export async function createDefaultEndpoint(
  db: Executor,
  input: { merchantId: string; url: string | null; eventTypes: readonly EventType[]; now: Date },
): Promise<WebhookEndpointRow> {
  const [row] = await db
    .insert(webhookEndpoints)
    .values({
      id: newId("webhookEndpoint"),
      merchantId: input.merchantId,
      url: input.url,
      eventTypes: [...input.eventTypes],
      isDefault: true,
      createdAt: input.now,
      updatedAt: input.now,
    })
    .returning();
  return row!;
}

/**
 * The profile changed its webhook URL or event types: the default endpoint follows, in what changed only. A new
 * URL leaves the subscription as it is — `null` (every type, new ones included) stays `null`, never the profile's
 * copy of today's catalogue: an endpoint's subscription changes only when its event types do.
 */
export async function profileToDefaultEndpoint(
  db: Executor,
  input: { merchantId: string; url?: string | null; eventTypes?: readonly string[]; now: Date },
): Promise<void> {
  await db
    .update(webhookEndpoints)
    .set({
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.eventTypes !== undefined ? { eventTypes: [...input.eventTypes] } : {}),
      updatedAt: input.now,
    })
    .where(and(eq(webhookEndpoints.merchantId, input.merchantId), eq(webhookEndpoints.isDefault, true)));
}

/** The default endpoint changed its URL or event types (PUT webhook/endpoint/{id}): the profile follows. */
export async function defaultEndpointToProfile(db: Executor, endpoint: WebhookEndpointRow, now: Date): Promise<void> {
  if (!endpoint.isDefault) return;
  await db
    .update(merchants)
    .set({ webhookUrl: endpoint.url, webhookEvents: endpoint.eventTypes ?? [...eventTypes], updatedAt: now })
    .where(eq(merchants.id, endpoint.merchantId));
}
