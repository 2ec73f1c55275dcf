import { and, eq, gte, inArray, like, lt, type SQL } from "drizzle-orm";
import { afterPosition, keysetTimestamp, newestFirst } from "@/server/db/keyset";
import { events, eventTypes } from "@/server/db/schema";
import { recordStaffRead } from "../audit/record-staff-read";
import { requireMerchantScope, type ServiceContext } from "../context";
import { byCursorAt, decodeCursor, toPage } from "../pagination";
import { validateInput } from "../validate";
import { listEventsInput, toEvent, type ListEventsInput } from "./schemas";

/**
 * The merchant's event log, newest first, keyset-paginated on (created_at, id): what a merchant whose endpoint
 * missed webhooks reads to catch up (docs/webhooks.md, "Event log"). Kept `WEBHOOK_EVENT_RETENTION_DAYS`.
 */
export async function listEvents({ ctx, input }: { ctx: ServiceContext; input: ListEventsInput }) {
  const { merchantId, livemode } = requireMerchantScope(ctx);
  const { limit, cursor, type, since, until, subjectId } = validateInput(listEventsInput, input, "query");
  const scope = `events:${merchantId}:${livemode ? "live" : "test"}`;
  const position = decodeCursor(ctx, scope, cursor);
  await recordStaffRead({ ctx, input: { view: "events" } });
  const conditions: (SQL | undefined)[] = [
    eq(events.merchantId, merchantId),
    eq(events.livemode, livemode),
    type === undefined ? undefined : typeCondition(type),
    since ? gte(events.createdAt, new Date(since)) : undefined,
    until ? lt(events.createdAt, new Date(until)) : undefined,
    subjectId ? eq(events.subjectId, subjectId) : undefined,
    position ? afterPosition(events.createdAt, events.id, position) : undefined,
  ];
  const rows = await ctx.reader
    .select({ event: events, cursorAt: keysetTimestamp(events.createdAt) })
    .from(events)
    .where(and(...conditions))
    .orderBy(...newestFirst(events.createdAt, events.id))
    .limit(limit + 1);
  return toPage(
    ctx,
    scope,
    rows.map((row) => ({ ...row, id: row.event.id })),
    limit,
    (row) => toEvent(row.event),
    byCursorAt,
  );
}

/** `invoice.*` → every catalogued type under the prefix (an index-friendly IN list, not a LIKE). */
function typeCondition(type: string): SQL {
  if (!type.endsWith(".*")) return eq(events.type, type as (typeof eventTypes)[number]);
  const prefix = type.slice(0, -1);
  const matching = eventTypes.filter((candidate) => candidate.startsWith(prefix));
  return matching.length > 0 ? inArray(events.type, matching) : like(events.type, `${prefix}%`);
}
