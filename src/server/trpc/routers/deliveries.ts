import { deliveryAsCurl } from "@/server/services/webhooks/curl";
import { deliveryIdParams } from "@/server/services/webhooks/schemas";
import { createRouter, merchantProcedure } from "../init";

/** Dashboard-only helpers for one of the signed-in merchant's webhook deliveries. */
export const deliveriesRouter = createRouter({
  /** The delivery as a freshly signed curl command, to replay it by hand. */
  curl: merchantProcedure("webhooks.read").input(deliveryIdParams).query(({ ctx, input }) => deliveryAsCurl({ ctx: ctx.service, input })),
});
