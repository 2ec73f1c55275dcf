import { z } from "zod";
import { createApiKey } from "@/server/services/api-keys/create";
import { listApiKeys } from "@/server/services/api-keys/list";
import { revokeApiKey } from "@/server/services/api-keys/revoke";
import { rollApiKey } from "@/server/services/api-keys/roll";
import {
  apiKeyIdInput,
  apiKeyListSchema,
  apiKeySchema,
  createApiKeyInput,
  listApiKeysInput,
  rollApiKeyInput,
} from "@/server/services/api-keys/schemas";
import { createRouter, merchantProcedure } from "../init";
import { once, submissionOf, type ShownOnce } from "../submission";

const DATABASE_ONLY = { store: "final", atomic: true } as const;

/**
 * The signed-in merchant's API keys. `create` and `roll` run once per form submission and answer the new key's
 * plaintext (`key`) that once: a resubmission's replay has `key: null`.
 */
export const apiKeysRouter = createRouter({
  list: merchantProcedure("api_keys.read")
    .input(listApiKeysInput.optional())
    .output(apiKeyListSchema)
    .query(({ ctx, input }) => listApiKeys({ ctx: ctx.service, input: input ?? {} })),
  create: merchantProcedure("api_keys.write")
    .input(submissionOf(createApiKeyInput))
    .output(z.object({ apiKey: apiKeySchema, key: z.string().nullable() }))
    .mutation(({ ctx, input, path }) =>
      once(ctx, path, input, (service): Promise<ShownOnce<Awaited<ReturnType<typeof createApiKey>>, "key">> => createApiKey({ ctx: service, input: input.input }), {
        policy: DATABASE_ONLY,
        keep: (made) => ({ ...made, key: null }),
      }),
    ),
  revoke: merchantProcedure("api_keys.write")
    .input(apiKeyIdInput)
    .output(apiKeySchema)
    .mutation(({ ctx, input }) => revokeApiKey({ ctx: ctx.service, input })),
  roll: merchantProcedure("api_keys.write")
    .input(submissionOf(rollApiKeyInput))
    .output(z.object({ previous: apiKeySchema, apiKey: apiKeySchema, key: z.string().nullable() }))
    .mutation(({ ctx, input, path }) =>
      once(ctx, path, input, (service): Promise<ShownOnce<Awaited<ReturnType<typeof rollApiKey>>, "key">> => rollApiKey({ ctx: service, input: input.input }), {
        policy: DATABASE_ONLY,
        keep: (made) => ({ ...made, key: null }),
      }),
    ),
});
