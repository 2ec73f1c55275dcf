import { and, eq } from "drizzle-orm";
import { apiKeys, type ApiKeyRow } from "@/server/db/schema";
import type { Executor } from "@/server/db/types";
import { NotFoundError } from "../errors";

/**
 * One of the merchant's keys, or 404 — also for another merchant's key, so ids reveal nothing.
 * `forUpdate` locks the row for the rest of the caller's transaction.
 */
export async function getApiKeyForMerchant(
  db: Executor,
  merchantId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<ApiKeyRow> {
  const query = db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.merchantId, merchantId)));
  const [row] = options.forUpdate ? await query.for("update") : await query;
  if (!row) throw new NotFoundError("API key");
  return row;
}
