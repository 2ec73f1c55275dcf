DROP INDEX "webhook_endpoints_merchant_idx";--> statement-breakpoint
DROP INDEX "payments_merchant_external_key";--> statement-breakpoint
DROP INDEX "payments_merchant_created_idx";--> statement-breakpoint
DROP INDEX "payments_merchant_created_stats_idx";--> statement-breakpoint
DROP INDEX "payments_merchant_occurred_stats_idx";--> statement-breakpoint
DROP INDEX "payments_merchant_status_currency_idx";--> statement-breakpoint
DROP INDEX "events_merchant_created_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_merchant_status_idx";--> statement-breakpoint
DROP INDEX "reconciliations_merchant_created_idx";--> statement-breakpoint
DROP INDEX "invoices_merchant_order_key";--> statement-breakpoint
DROP INDEX "invoices_merchant_created_idx";--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "livemode" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "livemode" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "livemode" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "livemode" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "livemode" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "reconciliations" ADD COLUMN "livemode" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "livemode" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "webhook_endpoints_merchant_idx" ON "webhook_endpoints" USING btree ("merchant_id","livemode","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_merchant_external_key" ON "payments" USING btree ("merchant_id","livemode","external_id");--> statement-breakpoint
CREATE INDEX "payments_merchant_created_idx" ON "payments" USING btree ("merchant_id","livemode","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payments_merchant_created_stats_idx" ON "payments" USING btree ("merchant_id","livemode","created_at","status","currency","amount");--> statement-breakpoint
CREATE INDEX "payments_merchant_occurred_stats_idx" ON "payments" USING btree ("merchant_id","livemode",coalesce("occurred_at", "created_at"),"status","currency","amount");--> statement-breakpoint
CREATE INDEX "payments_merchant_status_currency_idx" ON "payments" USING btree ("merchant_id","livemode","status","currency");--> statement-breakpoint
CREATE INDEX "events_merchant_created_idx" ON "events" USING btree ("merchant_id","livemode","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_merchant_status_idx" ON "webhook_deliveries" USING btree ("merchant_id","livemode","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "reconciliations_merchant_created_idx" ON "reconciliations" USING btree ("merchant_id","livemode","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_merchant_order_key" ON "invoices" USING btree ("merchant_id","livemode","order_id") WHERE "invoices"."order_id" is not null and "invoices"."status" <> 'void';--> statement-breakpoint
CREATE INDEX "invoices_merchant_created_idx" ON "invoices" USING btree ("merchant_id","livemode","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);