import { z } from "zod";
import { signCursor, verifyCursor, type KeysetPosition } from "@/lib/cursor";
import type { ServiceContext } from "./context";
import { ServiceError } from "./errors";

/** `?limit=` (1–100, default 20) and `?cursor=`, shared by every list. */
export const pageQuery = {
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(512).optional(),
};

/** Every list answers `{data, hasMore, nextCursor}` (DESIGN §8). */
export function listSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), hasMore: z.boolean(), nextCursor: z.string().nullable() });
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** The position a cursor points at, or 400 invalid_cursor: a tampered cursor never reaches SQL. */
export function decodeCursor(ctx: ServiceContext, scope: string, cursor: string | undefined): KeysetPosition | null {
  if (cursor === undefined) return null;
  const position = verifyCursor(ctx.env.AUTH_SECRET, scope, cursor);
  if (!position) throw new ServiceError("invalid_cursor", "The cursor is not valid for this list. Start again without one.");
  return position;
}

/**
 * Turns `limit + 1` fetched rows into a page: the extra row only says there is more. Rows carry their
 * keyset position (`cursorAt`, the microsecond timestamp text) next to the item.
 */
export function toPage<R extends { cursorAt: string; id: string }, T>(
  ctx: ServiceContext,
  scope: string,
  rows: R[],
  limit: number,
  toItem: (row: R) => T,
): Page<T> {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const last = pageRows.at(-1);
  return {
    data: pageRows.map(toItem),
    hasMore,
    nextCursor: hasMore && last ? signCursor(ctx.env.AUTH_SECRET, scope, { createdAt: last.cursorAt, id: last.id }) : null,
  };
}
