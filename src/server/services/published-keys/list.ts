import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { publishedKeys } from "@/server/db/schema";
import { requireMerchantId, type ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { validateInput } from "../validate";
import { listPublishedKeysInput, toPublishedKey, type ListPublishedKeysInput } from "./schemas";

const cursorSchema = z.tuple([z.iso.datetime(), z.string().max(64)]);

/**
 * The merchant's published keys with their history (active, retired, revoked), newest first, for the dashboard
 * and support. Keyset-paginated on (created_at, id), so a later page costs what the first one does.
 */
export async function listPublishedKeys({ ctx, input }: { ctx: ServiceContext; input: ListPublishedKeysInput }) {
  const merchantId = requireMerchantId(ctx);
  const { limit, cursor, status } = validateInput(listPublishedKeysInput, input, "query");
  const conditions: SQL[] = [eq(publishedKeys.merchantId, merchantId)];
  if (status) conditions.push(eq(publishedKeys.status, status));
  if (cursor) {
    const [createdAt, id] = decodeCursor(cursor);
    conditions.push(sql`(${publishedKeys.createdAt}, ${publishedKeys.id}) < (${createdAt.toISOString()}::timestamptz, ${id})`);
  }
  const rows = await ctx.db
    .select()
    .from(publishedKeys)
    .where(and(...conditions))
    .orderBy(desc(publishedKeys.createdAt), desc(publishedKeys.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const hasMore = rows.length > limit;
  return {
    data: page.map(toPublishedKey),
    hasMore,
    nextCursor: hasMore && last ? encodeCursor(last.createdAt, last.id) : null,
  };
}

function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([createdAt.toISOString(), id])).toString("base64url");
}

function decodeCursor(cursor: string): [Date, string] {
  try {
    const [createdAt, id] = cursorSchema.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
    return [new Date(createdAt), id];
  } catch {
    throw new ServiceError("invalid_cursor", "The cursor is not one this list returned.");
  }
}
