import { z } from "zod";
import { EXAMPLE_IDS, EXAMPLE_OPEN_INVOICE, EXAMPLE_PAYMENT, EXAMPLE_TIME } from "@/server/openapi/examples";
import { eventCursor } from "@/server/services/events/list-settled";
import { eventDetailSchema, getEvent } from "@/server/services/events/get";
import { listEvents } from "@/server/services/events/list";
import { eventIdParams, eventListSchema, eventSchema, listEventsInput } from "@/server/services/events/schemas";
import { requireMerchantId } from "@/server/services/context";
import { validateInput } from "@/server/services/validate";
import { claimStreamSlot, EVENT_STREAM, eventStream, sseEvent } from "../event-stream";
import { defineRoute } from "../route";

const SECONDS_MESSAGE = `must be a whole number from 0 to ${EVENT_STREAM.maxSeconds}`;

const streamQuery = z.strictObject({
  after: eventCursor.optional(),
  seconds: z
    .preprocess(
      (value) => (typeof value === "string" && /^\d{1,3}$/.test(value) ? Number(value) : value),
      z.number({ error: SECONDS_MESSAGE }).int(SECONDS_MESSAGE).min(0, SECONDS_MESSAGE).max(EVENT_STREAM.maxSeconds, SECONDS_MESSAGE),
    )
    .default(EVENT_STREAM.maxSeconds)
    .describe(
      `How long to hold the stream open (0–${EVENT_STREAM.maxSeconds} s, default ${EVENT_STREAM.maxSeconds}); ` +
        "0 sends the events so far and ends. Reconnect with Last-Event-ID to go on.",
    ),
});

const exampleEvent = { id: EXAMPLE_IDS.event, type: "invoice.created" as const, createdAt: EXAMPLE_TIME, data: EXAMPLE_OPEN_INVOICE };

// GET /api/v1/event/stream – the merchant's events as server-sent events (what `npm run listen` holds open)
export const eventStreamRoute = defineRoute({
  operationId: "streamEvents",
  method: "GET",
  path: "/event/stream",
  summary: "Stream your events (server-sent events)",
  description:
    "Your events, oldest first, as `text/event-stream`: each is `id: evt_…`, `event: <type>` and `data: {id, type, " +
    "createdAt, data}` (the webhook body's `data`). Sends the events after `Last-Event-ID` (the header a client sends " +
    "on reconnecting; or `?after=`), then new ones as they are recorded, about a second later, with a `: heartbeat` " +
    "comment every 15 s while quiet. Ends after `seconds`; reconnect with the last id received and nothing is lost " +
    `or repeated. At most ${EVENT_STREAM.maxPerMerchant} streams may be open at once per merchant (one more answers 429). ` +
    "`npm run listen` forwards this stream to a local URL as signed webhooks (docs/developer-tools.md).",
  tags: ["Events"],
  auth: "api_key",
  permission: "events.read",
  query: streamQuery,
  responses: {
    200: {
      description: "The event stream.",
      mediaType: "text/event-stream",
      schema: eventSchema,
      example: `retry: ${EVENT_STREAM.retryMs}\n\n${sseEvent(exampleEvent)}: heartbeat\n\n`,
    },
  },
  idempotency: false,
  handler: async ({ ctx, query, request }) => {
    const header = request.headers.get("last-event-id");
    const resumeFrom = header ? validateInput(eventCursor, header, "headers.last-event-id") : query.after;
    return {
      status: 200,
      body: eventStream({ ctx, after: resumeFrom, seconds: query.seconds, signal: request.signal, onClose: claimStreamSlot(requireMerchantId(ctx)) }),
      headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", "x-accel-buffering": "no" },
    };
  },
});

const tags = ["Events"];
const example = { id: EXAMPLE_IDS.event, type: "payment.confirmed", createdAt: EXAMPLE_TIME, data: EXAMPLE_PAYMENT };

// GET /api/v1/event – the event log
export const listEventsRoute = defineRoute({
  operationId: "listEvents",
  method: "GET",
  path: "/event",
  summary: "List events",
  description:
    "The merchant's events, newest first, cursor-paginated: what to read to catch up after missed webhooks. Filters: " +
    "`type` (exact, or a prefix such as `invoice.*`), `since` (inclusive), `until` (exclusive), `subjectId`. Events " +
    "are kept at least 30 days (`WEBHOOK_EVENT_RETENTION_DAYS`).",
  tags,
  auth: "api_key",
  permission: "events.read",
  query: listEventsInput,
  responses: { 200: { description: "A page of events.", schema: eventListSchema, example: { data: [example], hasMore: false, nextCursor: null } } },
  errors: ["invalid_cursor"],
  handler: async ({ ctx, query }) => ({ status: 200, body: await listEvents({ ctx, input: query }) }),
});

// GET /api/v1/event/{id} – one event with its deliveries
export const getEventRoute = defineRoute({
  operationId: "getEvent",
  method: "GET",
  path: "/event/{id}",
  summary: "Get an event",
  description: "The event and its deliveries, one per endpoint it was sent to.",
  tags,
  auth: "api_key",
  permission: "events.read",
  params: eventIdParams,
  responses: { 200: { description: "The event.", schema: eventDetailSchema, example: { ...example, deliveries: [] } } },
  handler: async ({ ctx, params }) => ({ status: 200, body: await getEvent({ ctx, input: params }) }),
});

export const eventRoutes = [eventStreamRoute, listEventsRoute, getEventRoute];
