import { z } from "zod";
import { createEndpoint } from "@/server/services/webhook-endpoints/create";
import { deleteEndpoint } from "@/server/services/webhook-endpoints/delete";
import { endpointHealth } from "@/server/services/webhook-endpoints/health";
import { listEndpoints } from "@/server/services/webhook-endpoints/list";
import { recoverEndpoint } from "@/server/services/webhook-endpoints/recover";
import { rotateEndpointSecretOf } from "@/server/services/webhook-endpoints/rotate-secret";
import { createEndpointInput, endpointIdParams, recoverInput, updateEndpointInput } from "@/server/services/webhook-endpoints/schemas";
import { updateEndpoint } from "@/server/services/webhook-endpoints/update";
import { createRouter, merchantProcedure } from "../init";

/** The dashboard's endpoint management: the REST verbs, scoped to the signed-in merchant, plus each endpoint's health. */
export const webhookEndpointsRouter = createRouter({
  list: merchantProcedure.query(({ ctx }) => listEndpoints({ ctx: ctx.service })),
  health: merchantProcedure.query(({ ctx }) => endpointHealth({ ctx: ctx.service })),
  create: merchantProcedure.input(createEndpointInput).mutation(({ ctx, input }) => createEndpoint({ ctx: ctx.service, input })),
  update: merchantProcedure
    .input(updateEndpointInput.extend({ id: z.string().max(100) }))
    .mutation(({ ctx, input }) => updateEndpoint({ ctx: ctx.service, input })),
  remove: merchantProcedure.input(endpointIdParams).mutation(({ ctx, input }) => deleteEndpoint({ ctx: ctx.service, input })),
  // A mutation: the new secret is shown once and must not be cached.
  rotateSecret: merchantProcedure.input(endpointIdParams).mutation(({ ctx, input }) => rotateEndpointSecretOf({ ctx: ctx.service, input })),
  recover: merchantProcedure
    .input(z.strictObject({ id: z.string().max(100), since: recoverInput.shape.since, until: recoverInput.shape.until }))
    .mutation(({ ctx, input }) => recoverEndpoint({ ctx: ctx.service, input })),
});
