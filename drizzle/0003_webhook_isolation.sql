CREATE TABLE "webhook_endpoint_breakers" (
	"merchant_id" text NOT NULL,
	"url" text NOT NULL,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"open_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_endpoint_breakers_merchant_id_url_pk" PRIMARY KEY("merchant_id","url")
);
--> statement-breakpoint
DROP INDEX "webhook_deliveries_due_idx";--> statement-breakpoint
ALTER TABLE "webhook_endpoint_breakers" ADD CONSTRAINT "webhook_endpoint_breakers_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_due_idx" ON "webhook_deliveries" USING btree ("merchant_id","url","next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending';