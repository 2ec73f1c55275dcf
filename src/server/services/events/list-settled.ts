import { and, asc, eq, gt, gte, lt, sql } from "drizzle-orm";
import { decodeTime } from "ulid";
import { z } from "zod";
import { ID_PREFIXES } from "@/lib/ids";
import { events } from "@/server/db/schema";
import { requireMerchantScope, type ServiceContext } from "../context";
import { validateInput } from "../validate";
import { toEvent } from "./schemas";

/** An event id as a resume point (`Last-Event-ID`, `?after=`). */
export const eventCursor = z
  .string()
  // A ULID's first character is at most 7: anything above overflows its 48-bit time (and decodeTime throws).
  .regex(new RegExp(`^${ID_PREFIXES.event}_[0-7][0-9a-hjkmnp-tv-z]{25}$`), "an event id, evt_…")
  .describe("Resume after this event id: only later events are sent.");

export const listSettledEventsInput = z.strictObject({
  after: eventCursor.optional(),
  limit: z.number().int().min(1).max(100),
});

/**
 * How far behind the database's clock the stream reads, on top of waiting for open writers: covers the
 * clocks of web processes that set `createdAt` differing from the database's (docs/developer-tools.md).
 */
const CLOCK_ALLOWANCE = "1 second";

/**
 * The merchant's events of the caller's mode after `after`, in id order (ids are ULIDs: they sort as events happened), that are
 * settled: created before every writing transaction still open on this database began. An event is inserted
 * inside the transaction of the change it records and becomes visible only at commit, so a later id can be
 * visible before an earlier one; reading only below that horizon means a cursor never skips an event committed
 * late. Only this database's transactions can hold an event back: `pg_stat_activity` lists every database of the
 * server, and another application's (or tenant database's) long transaction must not stall this stream.
 */
export async function listSettledEvents({ ctx, input }: { ctx: ServiceContext; input: z.input<typeof listSettledEventsInput> }) {
  const { merchantId, livemode } = requireMerchantScope(ctx);
  const { after, limit } = validateInput(listSettledEventsInput, input);
  // Ids carry their creation time: bounding createdAt from it lets the (merchant_id, created_at) index serve.
  const since = after ? new Date(decodeTime(after.slice(ID_PREFIXES.event.length + 1).toUpperCase()) - 60_000) : undefined;
  const horizon = sql`(
    select least(now(), coalesce(min(xact_start), now())) - interval '${sql.raw(CLOCK_ALLOWANCE)}'
    from pg_stat_activity where datname = current_database() and backend_xid is not null and pid <> pg_backend_pid())`;
  const rows = await ctx.db
    .select()
    .from(events)
    .where(
      and(
        eq(events.merchantId, merchantId),
        // The key's mode only (docs/test-mode.md): `npm run listen` with a test key streams test events.
        eq(events.livemode, livemode),
        after ? gt(events.id, after) : undefined,
        since ? gte(events.createdAt, since) : undefined,
        lt(events.createdAt, horizon),
      ),
    )
    .orderBy(asc(events.id))
    .limit(limit);
  return rows.map(toEvent);
}
