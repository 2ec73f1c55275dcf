import { z } from "zod";
import type { ApiKeyRow } from "@/server/db/schema";

/** An API key as listed: never the key itself, only its hint. */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  hint: z.string(),
  lastUsedAt: z.iso.datetime().nullable(),
  expiresAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});

export function toApiKey(row: ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    hint: row.hint,
    lastUsedAt: row.lastUsedAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    createdAt: row.createdAt,
  };
}
