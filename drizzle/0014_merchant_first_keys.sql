-- Merchant-first keys (docs/operations.md, "Past one primary"): every merchant-owned table's primary and unique
-- keys lead with merchant_id, and a foreign key between two merchant-owned tables carries merchant_id on both
-- sides, so a row can never point at another merchant's. The two tables without the column get it, filled from
-- the row they belong to. Written by hand: drizzle-kit cannot name the primary keys it replaces.
ALTER TABLE "webhook_secrets" DROP CONSTRAINT "webhook_secrets_endpoint_id_webhook_endpoints_id_fk";
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk";
--> statement-breakpoint
ALTER TABLE "webhook_endpoint_breakers" DROP CONSTRAINT "webhook_endpoint_breakers_endpoint_id_webhook_endpoints_id_fk";
--> statement-breakpoint
ALTER TABLE "reconciliation_lines" DROP CONSTRAINT "reconciliation_lines_reconciliation_id_reconciliations_id_fk";
--> statement-breakpoint
ALTER TABLE "webhook_endpoint_breakers" ADD COLUMN "merchant_id" text;
--> statement-breakpoint
UPDATE "webhook_endpoint_breakers" b SET "merchant_id" = e."merchant_id" FROM "webhook_endpoints" e WHERE e."id" = b."endpoint_id";
--> statement-breakpoint
ALTER TABLE "webhook_endpoint_breakers" ALTER COLUMN "merchant_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "reconciliation_lines" ADD COLUMN "merchant_id" text;
--> statement-breakpoint
UPDATE "reconciliation_lines" l SET "merchant_id" = r."merchant_id" FROM "reconciliations" r WHERE r."id" = l."reconciliation_id";
--> statement-breakpoint
ALTER TABLE "reconciliation_lines" ALTER COLUMN "merchant_id" SET NOT NULL;
--> statement-breakpoint
DROP INDEX "api_keys_digest_key";
--> statement-breakpoint
ALTER TABLE "reconciliation_lines" DROP CONSTRAINT "reconciliation_lines_reconciliation_id_position_pk";
--> statement-breakpoint
ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_pkey";
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "webhook_endpoints_pkey";
--> statement-breakpoint
ALTER TABLE "webhook_secrets" DROP CONSTRAINT "webhook_secrets_pkey";
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_pkey";
--> statement-breakpoint
ALTER TABLE "published_keys" DROP CONSTRAINT "published_keys_pkey";
--> statement-breakpoint
ALTER TABLE "webhook_endpoint_breakers" DROP CONSTRAINT "webhook_endpoint_breakers_pkey";
--> statement-breakpoint
ALTER TABLE "reconciliations" DROP CONSTRAINT "reconciliations_pkey";
--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_pkey";
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_merchant_id_id_pk" PRIMARY KEY("merchant_id","id");
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_merchant_id_id_pk" PRIMARY KEY("merchant_id","id");
--> statement-breakpoint
ALTER TABLE "webhook_secrets" ADD CONSTRAINT "webhook_secrets_merchant_id_id_pk" PRIMARY KEY("merchant_id","id");
--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_merchant_id_id_pk" PRIMARY KEY("merchant_id","id");
--> statement-breakpoint
ALTER TABLE "published_keys" ADD CONSTRAINT "published_keys_merchant_id_id_pk" PRIMARY KEY("merchant_id","id");
--> statement-breakpoint
ALTER TABLE "webhook_endpoint_breakers" ADD CONSTRAINT "webhook_endpoint_breakers_merchant_id_endpoint_id_pk" PRIMARY KEY("merchant_id","endpoint_id");
--> statement-breakpoint
ALTER TABLE "reconciliation_lines" ADD CONSTRAINT "reconciliation_lines_merchant_id_reconciliation_id_position_pk" PRIMARY KEY("merchant_id","reconciliation_id","position");
--> statement-breakpoint
ALTER TABLE "reconciliations" ADD CONSTRAINT "reconciliations_merchant_id_id_pk" PRIMARY KEY("merchant_id","id");
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_merchant_id_id_pk" PRIMARY KEY("merchant_id","id");
--> statement-breakpoint
ALTER TABLE "webhook_secrets" ADD CONSTRAINT "webhook_secrets_endpoint_fk" FOREIGN KEY ("merchant_id","endpoint_id") REFERENCES "public"."webhook_endpoints"("merchant_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_fk" FOREIGN KEY ("merchant_id","endpoint_id") REFERENCES "public"."webhook_endpoints"("merchant_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "webhook_endpoint_breakers" ADD CONSTRAINT "webhook_endpoint_breakers_endpoint_fk" FOREIGN KEY ("merchant_id","endpoint_id") REFERENCES "public"."webhook_endpoints"("merchant_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "reconciliation_lines" ADD CONSTRAINT "reconciliation_lines_report_fk" FOREIGN KEY ("merchant_id","reconciliation_id") REFERENCES "public"."reconciliations"("merchant_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_merchant_digest_key" ON "api_keys" USING btree ("merchant_id","digest");
--> statement-breakpoint
CREATE INDEX "api_keys_digest_idx" ON "api_keys" USING btree ("digest");
--> statement-breakpoint
CREATE INDEX "webhook_endpoints_id_idx" ON "webhook_endpoints" USING btree ("id");
--> statement-breakpoint
CREATE INDEX "payments_id_idx" ON "payments" USING btree ("id");
--> statement-breakpoint
CREATE INDEX "webhook_endpoint_breakers_endpoint_idx" ON "webhook_endpoint_breakers" USING btree ("endpoint_id");
--> statement-breakpoint
CREATE INDEX "invoices_id_idx" ON "invoices" USING btree ("id");
