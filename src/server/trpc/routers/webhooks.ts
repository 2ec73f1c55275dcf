import { z } from "zod";
import { getDelivery } from "@/server/services/webhooks/get";
import { listDeliveries } from "@/server/services/webhooks/list";
import { listFailedDeliveries } from "@/server/services/webhooks/list-failed";
import { retryDelivery } from "@/server/services/webhooks/retry";
import { retryFailedDeliveries } from "@/server/services/webhooks/retry-failed";
import { revealWebhookSecret } from "@/server/services/webhooks/reveal-secret";
import { rotateWebhookSecret } from "@/server/services/webhooks/rotate-secret";
import {
  deliveryDetailSchema,
  deliveryIdParams,
  deliveryListSchema,
  deliverySchema,
  listDeliveriesInput,
  listFailedDeliveriesInput,
  retryFailedDeliveriesInput,
  sendTestWebhookInput,
} from "@/server/services/webhooks/schemas";
import { sendTestWebhook } from "@/server/services/webhooks/send-test";
import { rateLimitsFor, TEST_SEND_LIMIT } from "@/server/rate-limit/limits";
import { requireMerchantId } from "@/server/services/context";
import { createRouter, merchantProcedure, staffProcedure } from "../init";
import { once, submissionOf, type ShownOnce } from "../submission";

const DATABASE_ONLY = { store: "final", atomic: true } as const;

/** The dashboard's webhooks page: the same verbs as REST, plus the secret (reveal, rotate) and staff retry. */
export const webhooksRouter = createRouter({
  deliveries: merchantProcedure("webhooks.read")
    .input(listDeliveriesInput)
    .output(deliveryListSchema)
    .query(({ ctx, input }) => listDeliveries({ ctx: ctx.service, input })),
  failed: merchantProcedure("webhooks.read")
    .input(listFailedDeliveriesInput)
    .output(deliveryListSchema)
    .query(({ ctx, input }) => listFailedDeliveries({ ctx: ctx.service, input })),
  delivery: merchantProcedure("webhooks.read").input(deliveryIdParams).output(deliveryDetailSchema).query(({ ctx, input }) => getDelivery({ ctx: ctx.service, input })),
  retry: merchantProcedure("webhooks.write").input(deliveryIdParams).output(deliverySchema).mutation(({ ctx, input }) => retryDelivery({ ctx: ctx.service, input })),
  retryFailed: merchantProcedure("webhooks.write")
    .input(retryFailedDeliveriesInput)
    .mutation(({ ctx, input }) => retryFailedDeliveries({ ctx: ctx.service, input })),
  sendTest: merchantProcedure("webhooks.write").input(sendTestWebhookInput).mutation(async ({ ctx, input }) => {
    // The API's limit on sends, counted against the same budget: the dashboard is no way around it.
    if (!input.dryRun) await rateLimitsFor(ctx.runtime).consume([{ policy: TEST_SEND_LIMIT, subject: requireMerchantId(ctx.service) }]);
    return sendTestWebhook({ ctx: ctx.service, input });
  }),
  /** What the URL field's hint must say: whether this server sends to http:// and private/loopback targets. */
  targetPolicy: merchantProcedure("webhooks.read").query(({ ctx }) => ({ allowPrivateTargets: ctx.service.env.WEBHOOK_ALLOW_PRIVATE_TARGETS })),
  // Mutations, not queries: each reveal and rotation is audited, and must not be cached or prefetched.
  revealSecret: merchantProcedure("webhooks.write").mutation(({ ctx }) => revealWebhookSecret({ ctx: ctx.service })),
  rotateSecret: merchantProcedure("webhooks.write")
    .input(submissionOf(z.strictObject({})))
    .mutation(({ ctx, input, path }) =>
      once(ctx, path, input, (service): Promise<ShownOnce<Awaited<ReturnType<typeof rotateWebhookSecret>>, "webhookSecret">> => rotateWebhookSecret({ ctx: service }), {
        policy: DATABASE_ONLY,
        keep: (rotated) => ({ ...rotated, webhookSecret: null }),
      }),
    ),
  /** Support staff retrying a merchant's failed delivery on their behalf (audited as the staff user). */
  staffRetry: staffProcedure("staff.deliveries.write")
    .input(submissionOf(z.strictObject({ merchantId: z.string().max(100), id: z.string().max(100) })))
    .output(deliverySchema)
    .mutation(({ ctx, input, path }) =>
      once({ ...ctx, service: ctx.forMerchant(input.input.merchantId) }, path, input, (service) => retryDelivery({ ctx: service, input: { id: input.input.id } }), {
        policy: DATABASE_ONLY,
      }),
    ),
  staffDelivery: staffProcedure("staff.merchants.read")
    .input(z.strictObject({ merchantId: z.string().max(100), id: z.string().max(100) }))
    .output(deliveryDetailSchema)
    .query(({ ctx, input }) => getDelivery({ ctx: ctx.forMerchant(input.merchantId), input: { id: input.id } })),
});
