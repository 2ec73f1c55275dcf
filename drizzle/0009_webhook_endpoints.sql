CREATE TABLE "webhook_endpoints" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"url" text,
	"description" text,
	"event_types" text[],
	"status" text DEFAULT 'enabled' NOT NULL,
	"disabled_reason" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"failing_since" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_endpoint_breakers" DROP CONSTRAINT "webhook_endpoint_breakers_merchant_id_merchants_id_fk";
--> statement-breakpoint
DROP INDEX "webhook_deliveries_endpoint_due_idx";--> statement-breakpoint
ALTER TABLE "webhook_endpoint_breakers" DROP CONSTRAINT "webhook_endpoint_breakers_merchant_id_url_pk";--> statement-breakpoint
-- Data migration (added to the generated statements): every merchant gets its default endpoint, from its profile's
-- webhook URL and event types, with an id made from the merchant's (mer_X -> we_X, so it is stable and unique);
-- its secrets and deliveries move to that endpoint. Breaker state (a 30 s cool-down at most) starts afresh.
INSERT INTO "webhook_endpoints" ("id", "merchant_id", "url", "event_types", "status", "is_default", "created_at", "updated_at")
SELECT 'we_' || substr("id", 5), "id", "webhook_url", "webhook_events", 'enabled', true, "created_at", now() FROM "merchants";--> statement-breakpoint
ALTER TABLE "webhook_secrets" ADD COLUMN "endpoint_id" text;--> statement-breakpoint
UPDATE "webhook_secrets" SET "endpoint_id" = 'we_' || substr("merchant_id", 5);--> statement-breakpoint
ALTER TABLE "webhook_secrets" ALTER COLUMN "endpoint_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "endpoint_id" text;--> statement-breakpoint
UPDATE "webhook_deliveries" SET "endpoint_id" = 'we_' || substr("merchant_id", 5);--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ALTER COLUMN "endpoint_id" SET NOT NULL;--> statement-breakpoint
DELETE FROM "webhook_endpoint_breakers";--> statement-breakpoint
ALTER TABLE "webhook_endpoint_breakers" ADD COLUMN "endpoint_id" text PRIMARY KEY NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_endpoints_merchant_idx" ON "webhook_endpoints" USING btree ("merchant_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_endpoints_default_key" ON "webhook_endpoints" USING btree ("merchant_id") WHERE "webhook_endpoints"."is_default";--> statement-breakpoint
ALTER TABLE "webhook_secrets" ADD CONSTRAINT "webhook_secrets_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoint_breakers" ADD CONSTRAINT "webhook_endpoint_breakers_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_secrets_endpoint_idx" ON "webhook_secrets" USING btree ("endpoint_id","created_at");--> statement-breakpoint
CREATE INDEX "events_created_idx" ON "events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_merchant_created_idx" ON "webhook_deliveries" USING btree ("merchant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_due_idx" ON "webhook_deliveries" USING btree ("endpoint_id","next_attempt_at","id") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "webhook_endpoint_breakers" DROP COLUMN "merchant_id";--> statement-breakpoint
ALTER TABLE "webhook_endpoint_breakers" DROP COLUMN "url";