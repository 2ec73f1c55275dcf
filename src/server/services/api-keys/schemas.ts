import { z } from "zod";
import { createSelectSchema } from "drizzle-zod";
import { apiKeys, type ApiKeyRow } from "@/server/db/schema";
import { listSchema, pageLimit } from "../pagination";
import { describeFields, isoTimestamps, rowShape } from "../row-shape";
import { apiKeyStatuses } from "@/lib/statuses";
import { allScopes, RESTRICTED_KEY_RESOURCES, SCOPE_LEVELS } from "@/lib/restricted-key-scopes";

/** Keys a merchant may hold at once (rolled and revoked keys do not count): enough for rotation, bounded. */
export const MAX_ACTIVE_API_KEYS = 20;
/** A rolled key keeps working at most this long, so a leaked key cannot be kept alive by rolling it. */
export const MAX_ROLL_OVERLAP_SECONDS = 24 * 60 * 60;
export const DEFAULT_ROLL_OVERLAP_SECONDS = 60 * 60;

const keyName = z.string().trim().min(1).max(100);
const keyId = z.string().min(1).max(64);

export const apiKeyModes = ["live", "test"] as const;
export type ApiKeyMode = (typeof apiKeyModes)[number];

const scopeLevel = z.enum(SCOPE_LEVELS);
const scopeResources = Object.fromEntries(RESTRICTED_KEY_RESOURCES.map((resource) => [resource, scopeLevel])) as Record<
  (typeof RESTRICTED_KEY_RESOURCES)[number],
  typeof scopeLevel
>;

/**
 * A restricted key's scopes as asked for: any of the resources, each `none`, `read` or `write` (`write` implies
 * `read`); a resource left out is `none`. An unknown level fails on its field (`scopes.<resource>`), an unknown
 * resource on `scopes` with a message naming it.
 */
export const scopesInput = z
  .strictObject(Object.fromEntries(RESTRICTED_KEY_RESOURCES.map((resource) => [resource, scopeLevel.optional()])) as {
    [R in keyof typeof scopeResources]: z.ZodOptional<typeof scopeLevel>;
  })
  .describe(
    "Makes a restricted key (`rk_live_`/`rk_test_`) that may touch only these resources: per resource `none`, `read` or " +
      "`write` (which implies `read`); a resource left out is `none`. Without `scopes`, a secret key (`sk_…`) with full access.",
  );

/** Every resource with its level: how a restricted key's scopes are shown. */
export const scopesSchema = z.object(scopeResources).meta({ id: "ApiKeyScopes" });

/** `mode` defaults to `live`: a body-less create makes the same live key it always did (docs/test-mode.md). */
export const createApiKeyInput = z.strictObject({
  mode: z.enum(apiKeyModes).default("live").describe("`test` makes an `sk_test_` key that sees and makes test data only."),
  name: keyName.nullish(),
  scopes: scopesInput.optional(),
});
export type CreateApiKeyInput = z.input<typeof createApiKeyInput>;

export const apiKeyIdInput = z.strictObject({ id: keyId });

export const rollApiKeyInput = z.strictObject({
  id: keyId,
  /** How long the old key keeps working (0 = stop now); at most 24 h. */
  overlapSeconds: z.number().int().min(0).max(MAX_ROLL_OVERLAP_SECONDS).default(DEFAULT_ROLL_OVERLAP_SECONDS),
});
export type RollApiKeyInput = z.input<typeof rollApiKeyInput>;

export const listApiKeysInput = z.strictObject({
  limit: pageLimit,
  /** The `nextCursor` of the previous page. */
  cursor: z.string().max(64).optional(),
});
export type ListApiKeysInput = z.input<typeof listApiKeysInput>;


/**
 * An API key as listed: the api_keys row less whose it is and its digest (never the key itself, only its hint),
 * with its mode and its status.
 */
export const apiKeySchema = describeFields(
  createSelectSchema(apiKeys, isoTimestamps(apiKeys))
    .omit({ merchantId: true, digest: true, livemode: true })
    .extend({ mode: z.enum(apiKeyModes), status: z.enum(apiKeyStatuses), scopes: scopesSchema.nullable() }),
  {
    mode: "`test`: an `sk_test_` or `rk_test_` key (docs/test-mode.md).",
    status: "`expiring`: rolled, works until `expiresAt`.",
    scopes: "A restricted key's (`rk_…`) level on every resource; null for a secret key (`sk_…`), which has full access.",
  },
).meta({ id: "ApiKey" });
export type ApiKey = z.infer<typeof apiKeySchema>;
export const apiKeyListSchema = listSchema(apiKeySchema);

export function apiKeyStatus(row: ApiKeyRow, now: Date): (typeof apiKeyStatuses)[number] {
  if (row.revokedAt) return "revoked";
  if (row.expiresAt) return row.expiresAt > now ? "expiring" : "expired";
  return "active";
}

const apiKeyShape = rowShape<typeof apiKeySchema, Omit<ApiKeyRow, "scopes"> & Pick<ApiKey, "mode" | "status" | "scopes">>(apiKeySchema);

export function toApiKey(row: ApiKeyRow, now: Date): ApiKey {
  return apiKeyShape({
    ...row,
    mode: row.livemode ? "live" : "test",
    status: apiKeyStatus(row, now),
    scopes: row.scopes ? allScopes(row.scopes) : null,
  });
}
