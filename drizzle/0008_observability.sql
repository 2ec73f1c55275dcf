ALTER TABLE "webhook_deliveries" ADD COLUMN "trace_parent" text;--> statement-breakpoint
CREATE INDEX "delivery_attempts_sent_idx" ON "delivery_attempts" USING btree ("sent_at");