CREATE TABLE "invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"order_id" text,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL,
	"amount_paid" numeric DEFAULT '0' NOT NULL,
	"amount_pending" numeric DEFAULT '0' NOT NULL,
	"status" text NOT NULL,
	"status_detail" text,
	"description" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"return_url" text,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"expired_at" timestamp with time zone,
	"voided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "payment_instructions" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_merchant_order_key" ON "invoices" USING btree ("merchant_id","order_id") WHERE "invoices"."order_id" is not null and "invoices"."status" <> 'void';--> statement-breakpoint
CREATE INDEX "invoices_merchant_created_idx" ON "invoices" USING btree ("merchant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "invoices_due_idx" ON "invoices" USING btree ("expires_at") WHERE "invoices"."status" in ('open', 'processing');--> statement-breakpoint
CREATE INDEX "payments_merchant_invoice_idx" ON "payments" USING btree ("merchant_id","invoice_id");