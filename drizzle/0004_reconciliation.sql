CREATE TABLE "reconciliation_lines" (
	"reconciliation_id" text NOT NULL,
	"position" integer NOT NULL,
	"line_number" integer,
	"status" text NOT NULL,
	"reason" text,
	"external_id" text,
	"reference" text,
	"file_amount" text,
	"file_currency" text,
	"fee" text,
	"settled_at" timestamp with time zone,
	"payment_id" text,
	"ledger_amount" text,
	"ledger_currency" text,
	"resolved_at" timestamp with time zone,
	"resolved_by" text,
	"resolution_note" text,
	CONSTRAINT "reconciliation_lines_reconciliation_id_position_pk" PRIMARY KEY("reconciliation_id","position")
);
--> statement-breakpoint
CREATE TABLE "reconciliation_mappings" (
	"merchant_id" text PRIMARY KEY NOT NULL,
	"columns" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reconciliations" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"status" text NOT NULL,
	"window_from" timestamp with time zone,
	"window_to" timestamp with time zone,
	"summary" jsonb,
	"file_lines" integer DEFAULT 0 NOT NULL,
	"created_by_type" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reconciliation_lines" ADD CONSTRAINT "reconciliation_lines_reconciliation_id_reconciliations_id_fk" FOREIGN KEY ("reconciliation_id") REFERENCES "public"."reconciliations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_mappings" ADD CONSTRAINT "reconciliation_mappings_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliations" ADD CONSTRAINT "reconciliations_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reconciliations_merchant_created_idx" ON "reconciliations" USING btree ("merchant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);