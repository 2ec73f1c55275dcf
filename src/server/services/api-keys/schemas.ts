import { z } from "zod";
import { pageLimit } from "../pagination";
import type { ApiKeyRow } from "@/server/db/schema";

/** Keys a merchant may hold at once (rolled and revoked keys do not count): enough for rotation, bounded. */
export const MAX_ACTIVE_API_KEYS = 20;
/** A rolled key keeps working at most this long, so a leaked key cannot be kept alive by rolling it. */
export const MAX_ROLL_OVERLAP_SECONDS = 24 * 60 * 60;
export const DEFAULT_ROLL_OVERLAP_SECONDS = 60 * 60;

const keyName = z.string().trim().min(1).max(100);
const keyId = z.string().min(1).max(64);

export const apiKeyModes = ["live", "test"] as const;
export type ApiKeyMode = (typeof apiKeyModes)[number];

/** `mode` defaults to `live`: a body-less create makes the same live key it always did (docs/test-mode.md). */
export const createApiKeyInput = z.strictObject({
  mode: z.enum(apiKeyModes).default("live").describe("`test` makes an `sk_test_` key that sees and makes test data only."),
  name: keyName.nullish(),
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

export const apiKeyStatuses = ["active", "expiring", "expired", "revoked"] as const;

/** An API key as listed: never the key itself, only its hint. */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  hint: z.string(),
  /** `test`: an `sk_test_` key (docs/test-mode.md). */
  mode: z.enum(apiKeyModes),
  /** `expiring`: rolled, works until `expiresAt`. */
  status: z.enum(apiKeyStatuses),
  lastUsedAt: z.iso.datetime().nullable(),
  expiresAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});

export function apiKeyStatus(row: ApiKeyRow, now: Date): (typeof apiKeyStatuses)[number] {
  if (row.revokedAt) return "revoked";
  if (row.expiresAt) return row.expiresAt > now ? "expiring" : "expired";
  return "active";
}

export function toApiKey(row: ApiKeyRow, now: Date) {
  return {
    id: row.id,
    name: row.name,
    hint: row.hint,
    mode: row.livemode ? ("live" as const) : ("test" as const),
    status: apiKeyStatus(row, now),
    lastUsedAt: row.lastUsedAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    createdAt: row.createdAt,
  };
}
export type ApiKey = ReturnType<typeof toApiKey>;
