CREATE TABLE "payment_methods" (
	"merchant_id" text NOT NULL,
	"livemode" boolean DEFAULT true NOT NULL,
	"position" smallint NOT NULL,
	"type" text NOT NULL,
	"details" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_methods_merchant_id_livemode_position_pk" PRIMARY KEY("merchant_id","livemode","position"),
	CONSTRAINT "payment_methods_position_check" CHECK ("payment_methods"."position" >= 0)
);
--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;