import { loadSigningSecrets } from "@/server/webhooks/secrets";
import { webhookBody } from "@/server/webhooks/payload";
import { signatureHeaders } from "@/server/webhooks/signing";
import { requireMerchantScope, type ServiceContext } from "../context";
import { getDeliveryForMerchant } from "./fetch";

/** A POSIX shell single-quoted string. */
function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A curl command that replays one delivery by hand: the same body, freshly signed now with its endpoint's
 * current secrets (so a receiver checking the ±5 min window accepts it for that long). The secret itself
 * is not in it.
 */
export async function deliveryAsCurl({ ctx, input }: { ctx: ServiceContext; input: { id: string } }) {
  const { delivery, event } = await getDeliveryForMerchant(ctx.db, requireMerchantScope(ctx), input.id);
  const now = ctx.now();
  const body = webhookBody(event);
  const secrets = await loadSigningSecrets(ctx.db, { endpointId: delivery.endpointId, now, authSecret: ctx.env.AUTH_SECRET });
  const headers = {
    "content-type": "application/json",
    ...signatureHeaders({ id: event.id, timestamp: Math.floor(now.getTime() / 1000), body, secrets, signingKeys: ctx.env.WEBHOOK_SIGNING_KEY }),
  };
  const command = [
    `curl -X POST ${quote(delivery.url)}`,
    ...Object.entries(headers).map(([name, value]) => `  -H ${quote(`${name}: ${value}`)}`),
    `  --data-raw ${quote(body)}`,
  ].join(" \\\n");
  return { command, signedAt: now.toISOString() };
}
