ALTER TABLE "payments" ADD COLUMN "amount_held" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
-- Refunds recorded before the column existed: each payment holds the sum of its refunds not failed or canceled
-- (services/refunds/held.ts), so the conditional UPDATE that records the next refund checks against them.
UPDATE "payments" SET "amount_held" = "held"."sum"
FROM (
	SELECT "merchant_id", "payment_id", sum("amount") AS "sum"
	FROM "refunds"
	WHERE "status" IN ('requires_action', 'pending', 'succeeded')
	GROUP BY "merchant_id", "payment_id"
) AS "held"
WHERE "payments"."merchant_id" = "held"."merchant_id" AND "payments"."id" = "held"."payment_id";
