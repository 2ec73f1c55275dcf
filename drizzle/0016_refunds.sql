CREATE TABLE "refunds" (
	"id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"livemode" boolean DEFAULT true NOT NULL,
	"payment_id" text NOT NULL,
	"invoice_id" text,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"note" text,
	"external_id" text,
	"failure_reason" text,
	"claim_token_hash" text,
	"claim_expires_at" timestamp with time zone,
	"claim_instructions" text,
	"destination" text,
	"destination_network" text,
	"claimed_at" timestamp with time zone,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"succeeded_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	CONSTRAINT "refunds_pkey" PRIMARY KEY("merchant_id","id")
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "amount_refunded" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_status" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "reconciliation_lines" ADD COLUMN "kind" text DEFAULT 'payment' NOT NULL;--> statement-breakpoint
ALTER TABLE "reconciliation_lines" ADD COLUMN "refund_id" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "amount_refunded" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_merchant_external_key" ON "refunds" USING btree ("merchant_id","livemode","external_id") WHERE "refunds"."external_id" is not null;--> statement-breakpoint
CREATE INDEX "refunds_merchant_created_idx" ON "refunds" USING btree ("merchant_id","livemode","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "refunds_merchant_payment_idx" ON "refunds" USING btree ("merchant_id","payment_id");--> statement-breakpoint
CREATE INDEX "refunds_merchant_invoice_idx" ON "refunds" USING btree ("merchant_id","invoice_id");--> statement-breakpoint
CREATE INDEX "refunds_merchant_succeeded_idx" ON "refunds" USING btree ("merchant_id","livemode","succeeded_at") WHERE "refunds"."status" = 'succeeded';--> statement-breakpoint
CREATE INDEX "refunds_claim_token_idx" ON "refunds" USING btree ("claim_token_hash");--> statement-breakpoint
CREATE INDEX "refunds_claim_due_idx" ON "refunds" USING btree ("claim_expires_at") WHERE "refunds"."status" = 'requires_action';