import { z } from "zod";
import { createEndpoint } from "@/server/services/webhook-endpoints/create";
import { deleteEndpoint } from "@/server/services/webhook-endpoints/delete";
import { endpointHealth } from "@/server/services/webhook-endpoints/health";
import { listEndpoints } from "@/server/services/webhook-endpoints/list";
import { recoverEndpoint } from "@/server/services/webhook-endpoints/recover";
import { rotateEndpointSecretOf } from "@/server/services/webhook-endpoints/rotate-secret";
import {
  createdEndpointSchema,
  createEndpointInput,
  endpointIdParams,
  endpointListSchema,
  endpointSchema,
  recoverInput,
  updateEndpointInput,
} from "@/server/services/webhook-endpoints/schemas";
import { updateEndpoint } from "@/server/services/webhook-endpoints/update";
import { rateLimitsFor, RECOVER_LIMIT } from "@/server/rate-limit/limits";
import { requireMerchantId } from "@/server/services/context";
import { createRouter, merchantProcedure } from "../init";
import { once, submissionOf, type ShownOnce } from "../submission";

/** The dashboard's endpoint management: the REST verbs, scoped to the signed-in merchant, plus each endpoint's health. */
export const webhookEndpointsRouter = createRouter({
  list: merchantProcedure("webhooks.read").output(endpointListSchema).query(({ ctx }) => listEndpoints({ ctx: ctx.service })),
  health: merchantProcedure("webhooks.read").query(({ ctx }) => endpointHealth({ ctx: ctx.service })),
  // Once per form submission; the URL check may resolve DNS, so the submission is claimed first (leased), not atomic.
  create: merchantProcedure("webhooks.write")
    .input(submissionOf(createEndpointInput))
    .output(createdEndpointSchema.extend({ secret: createdEndpointSchema.shape.secret.nullable() }))
    .mutation(({ ctx, input, path }) =>
      once(ctx, path, input, (service): Promise<ShownOnce<Awaited<ReturnType<typeof createEndpoint>>, "secret">> => createEndpoint({ ctx: service, input: input.input }), {
        keep: (made) => ({ ...made, secret: null }),
      }),
    ),
  update: merchantProcedure("webhooks.write")
    .input(updateEndpointInput.extend({ id: z.string().max(100) }))
    .output(endpointSchema)
    .mutation(({ ctx, input }) => updateEndpoint({ ctx: ctx.service, input })),
  remove: merchantProcedure("webhooks.write").input(endpointIdParams).mutation(({ ctx, input }) => deleteEndpoint({ ctx: ctx.service, input })),
  // A mutation: the new secret is shown once and must not be cached. Once per submission: a second rotation
  // would end the overlap of the secret the receiver still holds.
  rotateSecret: merchantProcedure("webhooks.write")
    .input(submissionOf(endpointIdParams))
    .mutation(({ ctx, input, path }) =>
      once(ctx, path, input, (service): Promise<ShownOnce<Awaited<ReturnType<typeof rotateEndpointSecretOf>>, "secret">> => rotateEndpointSecretOf({ ctx: service, input: input.input }), {
        policy: { store: "final", atomic: true },
        keep: (rotated) => ({ ...rotated, secret: null }),
      }),
    ),
  recover: merchantProcedure("webhooks.write")
    .input(z.strictObject({ id: z.string().max(100), since: recoverInput.shape.since, until: recoverInput.shape.until }))
    .mutation(async ({ ctx, input }) => {
      // The API's limit, counted against the same budget: the dashboard is no way around it.
      await rateLimitsFor(ctx.runtime).consume([{ policy: RECOVER_LIMIT, subject: requireMerchantId(ctx.service) }]);
      return recoverEndpoint({ ctx: ctx.service, input });
    }),
});
