-- The live deliveries' index on their (UTC) day rather than their time (db/sql/claim-deliveries.ts, oldestLiveDay):
-- the new one first, so the claim never runs without one.
CREATE INDEX "webhook_deliveries_live_day_idx" ON "webhook_deliveries" USING btree ((("event_created_at" at time zone 'UTC')::date)) WHERE "webhook_deliveries"."status" in ('pending', 'delivering');--> statement-breakpoint
DROP INDEX "webhook_deliveries_live_idx";
