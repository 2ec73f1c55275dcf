import { and, desc, getTableColumns, ilike, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import { afterPosition, keysetTimestamp } from "@/server/db/keyset";
import { containsPattern } from "@/server/db/like-pattern";
import { merchants } from "@/server/db/schema";
import { recordAudit } from "../audit/record";
import { requireStaff, type ServiceContext } from "../context";
import { byCursorAt, decodeCursor, pageQuery, toPage } from "../pagination";
import { validateInput } from "../validate";

export const listMerchantsInput = z.strictObject({
  ...pageQuery,
  query: z.string().trim().max(200).optional().describe("Part of a merchant's name, email or id (case-insensitive)."),
});

/**
 * The merchant directory for support staff: every merchant, newest first, optionally narrowed by part of the
 * name, email or id. Listing names and emails reads across merchants, so each call is audit-logged
 * (`staff.merchants_listed`, with the query), like the payment search.
 */
export async function listMerchantsAsStaff({ ctx, input }: { ctx: ServiceContext; input: z.input<typeof listMerchantsInput> }) {
  const staff = requireStaff(ctx);
  const query = validateInput(listMerchantsInput, input);
  const scope = `merchants:${staff.userId}:${query.query ?? ""}`;
  const position = decodeCursor(ctx, scope, query.cursor);
  const pattern = query.query ? containsPattern(query.query) : undefined;
  const conditions: (SQL | undefined)[] = [
    pattern ? or(ilike(merchants.name, pattern), ilike(merchants.email, pattern), ilike(merchants.id, pattern)) : undefined,
    position ? afterPosition(merchants.createdAt, merchants.id, position) : undefined,
  ];
  const { id, name, email, status, website, createdAt } = getTableColumns(merchants);
  const rows = await ctx.reader
    .select({ id, name, email, status, website, createdAt, cursorAt: keysetTimestamp(merchants.createdAt) })
    .from(merchants)
    .where(and(...conditions))
    .orderBy(desc(merchants.createdAt), desc(merchants.id))
    .limit(query.limit + 1);
  await recordAudit({
    ctx,
    input: { action: "staff.merchants_listed", targetType: "merchant", merchantId: null, details: { query: query.query ?? null, results: Math.min(rows.length, query.limit) } },
  });
  return toPage(ctx, scope, rows, query.limit, ({ cursorAt: _cursorAt, ...merchant }) => merchant, byCursorAt);
}
