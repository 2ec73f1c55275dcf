import { listPublishedKeys } from "@/server/services/published-keys/list";
import { publishKeys } from "@/server/services/published-keys/publish";
import { revokePublishedKey } from "@/server/services/published-keys/revoke";
import {
  listPublishedKeysInput,
  publishedKeyIdParams,
  publishedKeyList,
  publishedKeySchema,
  publishKeysInput,
  publishKeysResult,
} from "@/server/services/published-keys/schemas";
import { createRouter, merchantProcedure } from "../init";
import { once, submissionOf } from "../submission";

/** The signed-in merchant's published public keys. */
export const publishedKeysRouter = createRouter({
  list: merchantProcedure("published_keys.read").input(listPublishedKeysInput).output(publishedKeyList).query(({ ctx, input }) => listPublishedKeys({ ctx: ctx.service, input })),
  publish: merchantProcedure("published_keys.write")
    .input(submissionOf(publishKeysInput))
    .output(publishKeysResult)
    .mutation(({ ctx, input, path }) => once(ctx, path, input, (service) => publishKeys({ ctx: service, input: input.input }), { policy: { store: "final", atomic: true } })),
  revoke: merchantProcedure("published_keys.write").input(publishedKeyIdParams).output(publishedKeySchema).mutation(({ ctx, input }) => revokePublishedKey({ ctx: ctx.service, input })),
});
