import { z } from "zod";
import { getDelivery } from "@/server/services/webhooks/get";
import { listDeliveries } from "@/server/services/webhooks/list";
import { listFailedDeliveries } from "@/server/services/webhooks/list-failed";
import { retryDelivery } from "@/server/services/webhooks/retry";
import { retryFailedDeliveries } from "@/server/services/webhooks/retry-failed";
import { revealWebhookSecret } from "@/server/services/webhooks/reveal-secret";
import { rotateWebhookSecret } from "@/server/services/webhooks/rotate-secret";
import {
  deliveryIdParams,
  listDeliveriesInput,
  listFailedDeliveriesInput,
  retryFailedDeliveriesInput,
  sendTestWebhookInput,
} from "@/server/services/webhooks/schemas";
import { sendTestWebhook } from "@/server/services/webhooks/send-test";
import { rateLimitsFor, TEST_SEND_LIMIT } from "@/server/rate-limit/limits";
import { requireMerchantId } from "@/server/services/context";
import { createRouter, merchantProcedure, staffProcedure } from "../init";

/** The dashboard's webhooks page: the same verbs as REST, plus the secret (reveal, rotate) and staff retry. */
export const webhooksRouter = createRouter({
  deliveries: merchantProcedure.input(listDeliveriesInput).query(({ ctx, input }) => listDeliveries({ ctx: ctx.service, input })),
  failed: merchantProcedure.input(listFailedDeliveriesInput).query(({ ctx, input }) => listFailedDeliveries({ ctx: ctx.service, input })),
  delivery: merchantProcedure.input(deliveryIdParams).query(({ ctx, input }) => getDelivery({ ctx: ctx.service, input })),
  retry: merchantProcedure.input(deliveryIdParams).mutation(({ ctx, input }) => retryDelivery({ ctx: ctx.service, input })),
  retryFailed: merchantProcedure
    .input(retryFailedDeliveriesInput)
    .mutation(({ ctx, input }) => retryFailedDeliveries({ ctx: ctx.service, input })),
  sendTest: merchantProcedure.input(sendTestWebhookInput).mutation(async ({ ctx, input }) => {
    // The API's limit on sends, counted against the same budget: the dashboard is no way around it.
    if (!input.dryRun) await rateLimitsFor(ctx.runtime).consume([{ policy: TEST_SEND_LIMIT, subject: requireMerchantId(ctx.service) }]);
    return sendTestWebhook({ ctx: ctx.service, input });
  }),
  /** What the URL field's hint must say: whether this server sends to http:// and private/loopback targets. */
  targetPolicy: merchantProcedure.query(({ ctx }) => ({ allowPrivateTargets: ctx.service.env.WEBHOOK_ALLOW_PRIVATE_TARGETS })),
  // Mutations, not queries: each reveal and rotation is audited, and must not be cached or prefetched.
  revealSecret: merchantProcedure.mutation(({ ctx }) => revealWebhookSecret({ ctx: ctx.service })),
  rotateSecret: merchantProcedure.mutation(({ ctx }) => rotateWebhookSecret({ ctx: ctx.service })),
  /** Support staff retrying a merchant's failed delivery on their behalf (audited as the staff user). */
  staffRetry: staffProcedure
    .input(z.strictObject({ merchantId: z.string().max(100), id: z.string().max(100) }))
    .mutation(({ ctx, input }) => retryDelivery({ ctx: ctx.forMerchant(input.merchantId), input: { id: input.id } })),
  staffDelivery: staffProcedure
    .input(z.strictObject({ merchantId: z.string().max(100), id: z.string().max(100) }))
    .query(({ ctx, input }) => getDelivery({ ctx: ctx.forMerchant(input.merchantId), input: { id: input.id } })),
});
