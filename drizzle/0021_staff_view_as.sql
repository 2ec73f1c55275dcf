ALTER TABLE "sessions" ADD COLUMN "view_as_merchant_id" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "view_as_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "view_as_reason" text;