import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { auditLog, type AuditLogRow } from "@/server/db/schema";
import { requireStaff, type ServiceContext } from "../context";
import { fieldErrorsFromZod, ServiceError, ValidationError } from "../errors";

export const listAuditLogInput = z.strictObject({
  merchantId: z.string().min(1).max(64).optional(),
  action: z.string().min(1).max(100).optional(),
  actorId: z.string().min(1).max(64).optional(),
  limit: z.number().int().min(1).max(100).default(50),
  cursor: z.string().min(1).max(512).optional(),
});
export type ListAuditLogInput = z.input<typeof listAuditLogInput>;

export interface AuditEntryView {
  id: string;
  actorType: AuditLogRow["actorType"];
  actorId: string | null;
  merchantId: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  requestId: string | null;
  details: Record<string, unknown> | null;
  createdAt: Date;
}

// Keyset position: the row's timestamp as text with microseconds (a Date would drop them) and its id.
const timestampText = sql<string>`to_char(${auditLog.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

function encodeCursor(at: string, id: string) {
  return Buffer.from(JSON.stringify([at, id])).toString("base64url");
}

function decodeCursor(cursor: string): [string, string] {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    if (typeof at === "string" && /^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(at) && typeof id === "string" && /^aud_[0-9a-z]{26}$/.test(id)) {
      return [at, id];
    }
  } catch {
    // falls through to the error below
  }
  throw new ServiceError("invalid_cursor", "The cursor is not valid for this list. Start again without one.");
}

/** The audit log, newest first, for support staff only; filterable by merchant, action and actor. */
export async function listAuditLog({ ctx, input }: { ctx: ServiceContext; input: ListAuditLogInput }) {
  requireStaff(ctx);
  const parsed = listAuditLogInput.safeParse(input);
  if (!parsed.success) throw new ValidationError(fieldErrorsFromZod("input", parsed.error.issues));
  const query = parsed.data;
  const position = query.cursor ? decodeCursor(query.cursor) : null;
  const conditions: (SQL | undefined)[] = [
    query.merchantId ? eq(auditLog.merchantId, query.merchantId) : undefined,
    query.action ? eq(auditLog.action, query.action) : undefined,
    query.actorId ? eq(auditLog.actorId, query.actorId) : undefined,
    position ? sql`(${auditLog.createdAt}, ${auditLog.id}) < (${position[0]}::timestamptz, ${position[1]})` : undefined,
  ];
  const rows = await ctx.db
    .select({ row: auditLog, at: timestampText })
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(query.limit + 1);
  const hasMore = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    data: page.map(({ row }): AuditEntryView => ({ ...row })),
    hasMore,
    nextCursor: hasMore && last ? encodeCursor(last.at, last.row.id) : null,
  };
}
