import { listPublishedKeys } from "@/server/services/published-keys/list";
import { publishKeys } from "@/server/services/published-keys/publish";
import { revokePublishedKey } from "@/server/services/published-keys/revoke";
import { listPublishedKeysInput, publishedKeyIdParams, publishKeysInput } from "@/server/services/published-keys/schemas";
import { createRouter, merchantProcedure } from "../init";

/** The signed-in merchant's published public keys. */
export const publishedKeysRouter = createRouter({
  list: merchantProcedure.input(listPublishedKeysInput).query(({ ctx, input }) => listPublishedKeys({ ctx: ctx.service, input })),
  publish: merchantProcedure.input(publishKeysInput).mutation(({ ctx, input }) => publishKeys({ ctx: ctx.service, input })),
  revoke: merchantProcedure.input(publishedKeyIdParams).mutation(({ ctx, input }) => revokePublishedKey({ ctx: ctx.service, input })),
});
