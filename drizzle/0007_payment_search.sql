-- Added by hand above what drizzle-kit generated (it does not manage extensions): the trigram operator classes
-- the search indexes below use. PGlite loads the extension in db/open.ts; PostgreSQL ships it in contrib.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "payments_merchant_occurred_stats_idx" ON "payments" USING btree ("merchant_id",coalesce("occurred_at", "created_at"),"status","currency","amount");--> statement-breakpoint
CREATE INDEX "payments_external_trgm_idx" ON "payments" USING gin ("external_id" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "payments_reference_trgm_idx" ON "payments" USING gin ("reference" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "payments_id_trgm_idx" ON "payments" USING gin ("id" gin_trgm_ops);