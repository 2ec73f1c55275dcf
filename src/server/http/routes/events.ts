import { EXAMPLE_IDS, EXAMPLE_PAYMENT, EXAMPLE_TIME } from "@/server/openapi/examples";
import { getEvent } from "@/server/services/events/get";
import { listEvents } from "@/server/services/events/list";
import { eventDetailSchema, eventIdParams, eventListSchema, listEventsInput } from "@/server/services/events/schemas";
import { defineRoute } from "../route";

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
  params: eventIdParams,
  responses: { 200: { description: "The event.", schema: eventDetailSchema, example: { ...example, deliveries: [] } } },
  handler: async ({ ctx, params }) => ({ status: 200, body: await getEvent({ ctx, input: params }) }),
});

export const eventRoutes = [listEventsRoute, getEventRoute];
