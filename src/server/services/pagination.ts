import { z } from "zod";
import { signCursor, verifyCursor, type KeysetPosition } from "@/lib/cursor";
import type { ServiceContext } from "./context";
import { ServiceError } from "./errors";

const LIMIT_MESSAGE = "must be a whole number from 1 to 100";

/**
 * A page size: a number (tRPC) or the digits of one (a query string). A preprocess rather than `z.coerce`, which
 * would read "1e2" as 100 and "0x10" as 16, and answer a repeated `?limit=` with "received NaN"; the OpenAPI
 * document still shows the integer it validates.
 */
export const pageLimit = z
  .preprocess(
    (value) => (typeof value === "string" && /^\d{1,3}$/.test(value) ? Number(value) : value),
    z.number({ error: (issue) => (Array.isArray(issue.input) ? "must be given once" : LIMIT_MESSAGE) }).int(LIMIT_MESSAGE).min(1, LIMIT_MESSAGE).max(100, LIMIT_MESSAGE),
  )
  .default(20);

/** `?limit=` (1–100, default 20) and `?cursor=`, shared by every list. */
export const pageQuery = {
  limit: pageLimit,
  cursor: z.string().min(1).max(512).optional(),
};

/** Every list answers `{data, hasMore, nextCursor}` (docs/api-contract.md, "Conventions"). */
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
 * keyset position next to the item, which `positionOf` reads (`byCursorAt` for rows that select it as
 * `cursorAt`, the microsecond timestamp text, beside `id`).
 */
export function toPage<R, T>(
  ctx: ServiceContext,
  scope: string,
  rows: R[],
  limit: number,
  toItem: (row: R) => T,
  positionOf: (row: R) => KeysetPosition,
): Page<T> {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const last = pageRows.at(-1);
  return {
    data: pageRows.map(toItem),
    hasMore,
    nextCursor: hasMore && last ? signCursor(ctx.env.AUTH_SECRET, scope, positionOf(last)) : null,
  };
}

/** The keyset position of a row that selects it as `cursorAt` (db/keyset.ts `keysetTimestamp`) and `id`. */
export function byCursorAt(row: { cursorAt: string; id: string }): KeysetPosition {
  return { createdAt: row.cursorAt, id: row.id };
}
