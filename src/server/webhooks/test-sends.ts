import { sql } from "drizzle-orm";
import { TEST_SEND_EVENT } from "@/lib/event-types";
import { events } from "@/server/db/schema";

/*
 * "Is this delivery a test send?" in SQL, from its event (src/lib/event-types.ts, `isTestSendEvent`): never from
 * `next_trigger`, which a retry turns from `test` into `manual`. One primary-key probe per delivery row.
 */
export const isTestSendDelivery = sql<boolean>`exists (select 1 from ${events} e where e.id = "webhook_deliveries"."event_id" and e.type = ${TEST_SEND_EVENT})`;
export const isNotTestSendDelivery = sql<boolean>`not ${isTestSendDelivery}`;
