import { createApiKey } from "@/server/services/api-keys/create";
import { listApiKeys } from "@/server/services/api-keys/list";
import { revokeApiKey } from "@/server/services/api-keys/revoke";
import { rollApiKey } from "@/server/services/api-keys/roll";
import {
  apiKeyIdInput,
  createApiKeyInput,
  listApiKeysInput,
  rollApiKeyInput,
} from "@/server/services/api-keys/schemas";
import { createRouter, merchantProcedure } from "../init";

/** The signed-in merchant's API keys. `create` and `roll` answer the new key's plaintext this once. */
export const apiKeysRouter = createRouter({
  list: merchantProcedure
    .input(listApiKeysInput.optional())
    .query(({ ctx, input }) => listApiKeys({ ctx: ctx.service, input: input ?? {} })),
  create: merchantProcedure
    .input(createApiKeyInput)
    .mutation(({ ctx, input }) => createApiKey({ ctx: ctx.service, input })),
  revoke: merchantProcedure
    .input(apiKeyIdInput)
    .mutation(({ ctx, input }) => revokeApiKey({ ctx: ctx.service, input })),
  roll: merchantProcedure
    .input(rollApiKeyInput)
    .mutation(({ ctx, input }) => rollApiKey({ ctx: ctx.service, input })),
});
