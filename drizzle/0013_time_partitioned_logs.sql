-- The four logs (events, webhook deliveries, delivery attempts, the audit log) become range-partitioned by
-- creation time (docs/operations.md, "Partitions and retention"). Drizzle cannot declare a partitioned table, so
-- this migration is written by hand; its end state is what src/server/db/schema declares (keys, indexes, foreign
-- keys). Each table is made anew, partitioned, with a default partition and one partition for every day (every
-- month for the audit log) that existing rows fall in; the rows are copied over, the old tables dropped. A
-- delivery and its attempts take their event's creation time as partition key (event_created_at), so an event's
-- whole tree lives in one day's partitions. Days ahead are made by the service (db/sql/log-partitions.ts).
CREATE TABLE "events_partitioned" (
	"id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"livemode" boolean DEFAULT true NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"subject_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
) PARTITION BY RANGE ("created_at");
--> statement-breakpoint
CREATE TABLE "webhook_deliveries_partitioned" (
	"id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"livemode" boolean DEFAULT true NOT NULL,
	"event_id" text NOT NULL,
	"event_created_at" timestamp with time zone NOT NULL,
	"endpoint_id" text NOT NULL,
	"url" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"next_trigger" text DEFAULT 'scheduled' NOT NULL,
	"lease_expires_at" timestamp with time zone,
	"last_status_code" integer,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"trace_parent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
) PARTITION BY RANGE ("event_created_at");
--> statement-breakpoint
CREATE TABLE "delivery_attempts_partitioned" (
	"id" text NOT NULL,
	"delivery_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"event_created_at" timestamp with time zone NOT NULL,
	"trigger" text NOT NULL,
	"queued_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"status_code" integer,
	"error_class" text,
	"error_message" text,
	"latency_ms" integer,
	"response_headers" jsonb,
	"response_body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
) PARTITION BY RANGE ("event_created_at");
--> statement-breakpoint
CREATE TABLE "audit_log_partitioned" (
	"id" text NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text,
	"merchant_id" text,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text,
	"request_id" text,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
) PARTITION BY RANGE ("created_at");
--> statement-breakpoint
-- The delivery outbox's vacuum settings (migration 0002) go on each of its partitions: a partitioned table holds none.
CREATE TABLE "events_default" PARTITION OF "events_partitioned" DEFAULT;
--> statement-breakpoint
CREATE TABLE "webhook_deliveries_default" PARTITION OF "webhook_deliveries_partitioned" DEFAULT
	WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 2000, autovacuum_analyze_scale_factor = 0.02);
--> statement-breakpoint
CREATE TABLE "delivery_attempts_default" PARTITION OF "delivery_attempts_partitioned" DEFAULT;
--> statement-breakpoint
CREATE TABLE "audit_log_default" PARTITION OF "audit_log_partitioned" DEFAULT;
--> statement-breakpoint
-- A partition for every UTC day (month) holding existing rows, named <table>_pYYYYMMDD (<table>_pYYYYMM).
DO $$
DECLARE
	day timestamptz;
	deliveries_options text := 'autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 2000, autovacuum_analyze_scale_factor = 0.02';
BEGIN
	FOR day IN SELECT DISTINCT date_trunc('day', created_at, 'UTC') FROM "events" LOOP
		EXECUTE format('CREATE TABLE %I PARTITION OF "events_partitioned" FOR VALUES FROM (%L) TO (%L)',
			'events_p' || to_char(day AT TIME ZONE 'UTC', 'YYYYMMDD'), day, day + interval '1 day');
		EXECUTE format('CREATE TABLE %I PARTITION OF "webhook_deliveries_partitioned" FOR VALUES FROM (%L) TO (%L) WITH (%s)',
			'webhook_deliveries_p' || to_char(day AT TIME ZONE 'UTC', 'YYYYMMDD'), day, day + interval '1 day', deliveries_options);
		EXECUTE format('CREATE TABLE %I PARTITION OF "delivery_attempts_partitioned" FOR VALUES FROM (%L) TO (%L)',
			'delivery_attempts_p' || to_char(day AT TIME ZONE 'UTC', 'YYYYMMDD'), day, day + interval '1 day');
	END LOOP;
	FOR day IN SELECT DISTINCT date_trunc('month', created_at, 'UTC') FROM "audit_log" LOOP
		EXECUTE format('CREATE TABLE %I PARTITION OF "audit_log_partitioned" FOR VALUES FROM (%L) TO (%L)',
			'audit_log_p' || to_char(day AT TIME ZONE 'UTC', 'YYYYMM'), day, (day AT TIME ZONE 'UTC' + interval '1 month') AT TIME ZONE 'UTC');
	END LOOP;
END $$;
--> statement-breakpoint
INSERT INTO "events_partitioned" ("id", "merchant_id", "livemode", "type", "data", "subject_id", "created_at")
	SELECT "id", "merchant_id", "livemode", "type", "data", "subject_id", "created_at" FROM "events";
--> statement-breakpoint
INSERT INTO "webhook_deliveries_partitioned" ("id", "merchant_id", "livemode", "event_id", "event_created_at", "endpoint_id", "url", "status",
		"attempt_count", "next_attempt_at", "next_trigger", "lease_expires_at", "last_status_code", "last_error", "delivered_at", "failed_at",
		"trace_parent", "created_at", "updated_at")
	SELECT d."id", d."merchant_id", d."livemode", d."event_id", e."created_at", d."endpoint_id", d."url", d."status",
		d."attempt_count", d."next_attempt_at", d."next_trigger", d."lease_expires_at", d."last_status_code", d."last_error", d."delivered_at", d."failed_at",
		d."trace_parent", d."created_at", d."updated_at"
	FROM "webhook_deliveries" d JOIN "events" e ON e."id" = d."event_id";
--> statement-breakpoint
INSERT INTO "delivery_attempts_partitioned" ("id", "delivery_id", "merchant_id", "event_created_at", "trigger", "queued_at", "sent_at", "status_code",
		"error_class", "error_message", "latency_ms", "response_headers", "response_body", "created_at")
	SELECT a."id", a."delivery_id", a."merchant_id", e."created_at", a."trigger", a."queued_at", a."sent_at", a."status_code",
		a."error_class", a."error_message", a."latency_ms", a."response_headers", a."response_body", a."created_at"
	FROM "delivery_attempts" a JOIN "webhook_deliveries" d ON d."id" = a."delivery_id" JOIN "events" e ON e."id" = d."event_id";
--> statement-breakpoint
INSERT INTO "audit_log_partitioned" ("id", "actor_type", "actor_id", "merchant_id", "action", "target_type", "target_id", "request_id", "details", "created_at")
	SELECT "id", "actor_type", "actor_id", "merchant_id", "action", "target_type", "target_id", "request_id", "details", "created_at" FROM "audit_log";
--> statement-breakpoint
DROP TABLE "delivery_attempts", "webhook_deliveries", "events", "audit_log";
--> statement-breakpoint
ALTER TABLE "events_partitioned" RENAME TO "events";
--> statement-breakpoint
ALTER TABLE "webhook_deliveries_partitioned" RENAME TO "webhook_deliveries";
--> statement-breakpoint
ALTER TABLE "delivery_attempts_partitioned" RENAME TO "delivery_attempts";
--> statement-breakpoint
ALTER TABLE "audit_log_partitioned" RENAME TO "audit_log";
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_merchant_id_id_created_at_pk" PRIMARY KEY("merchant_id","id","created_at");
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_merchant_id_id_event_created_at_pk" PRIMARY KEY("merchant_id","id","event_created_at");
--> statement-breakpoint
ALTER TABLE "delivery_attempts" ADD CONSTRAINT "delivery_attempts_merchant_id_id_event_created_at_pk" PRIMARY KEY("merchant_id","id","event_created_at");
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_id_created_at_pk" PRIMARY KEY("id","created_at");
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "events_id_idx" ON "events" USING btree ("id");
--> statement-breakpoint
CREATE INDEX "events_merchant_created_idx" ON "events" USING btree ("merchant_id","livemode","created_at");
--> statement-breakpoint
CREATE INDEX "events_subject_idx" ON "events" USING btree ("subject_id");
--> statement-breakpoint
CREATE INDEX "events_created_idx" ON "events" USING btree ("created_at");
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_id_idx" ON "webhook_deliveries" USING btree ("id");
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_due_idx" ON "webhook_deliveries" USING btree ("endpoint_id","next_attempt_at","id") WHERE "status" = 'pending';
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_lease_idx" ON "webhook_deliveries" USING btree ("lease_expires_at") WHERE "status" = 'delivering';
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_merchant_status_idx" ON "webhook_deliveries" USING btree ("merchant_id","livemode","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_merchant_created_idx" ON "webhook_deliveries" USING btree ("merchant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("event_id");
--> statement-breakpoint
CREATE INDEX "delivery_attempts_delivery_idx" ON "delivery_attempts" USING btree ("delivery_id","sent_at");
--> statement-breakpoint
CREATE INDEX "delivery_attempts_sent_idx" ON "delivery_attempts" USING btree ("sent_at");
--> statement-breakpoint
CREATE INDEX "audit_log_merchant_created_idx" ON "audit_log" USING btree ("merchant_id","created_at");
--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at");
