import { sql } from "drizzle-orm";
import { index, jsonb, numeric, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, livemode, timestamptz, updatedAt } from "./columns";
import { refundStatuses } from "../../../lib/statuses";
import { merchants } from "./merchants";

/**
 * A refund's life (docs/refunds.md, "States"): `requires_action` (a claim link waits for the payer) → `pending`
 * (claimed, or recorded as initiated) → `succeeded | failed`; `requires_action | pending → canceled`. The values
 * and their words live with every other status (src/lib/statuses.ts).
 */
export { refundStatuses };
export type RefundStatus = (typeof refundStatuses)[number];

export const refundReasons = ["requested_by_customer", "duplicate", "fraudulent", "order_canceled", "other"] as const;
export type RefundReason = (typeof refundReasons)[number];

/**
 * Money given back on a payment (docs/refunds.md): its own rows with their own states; the payment's and the
 * invoice's refunded amounts are recomputed from them under the payment's row lock. Merchant-first keys (ready to
 * shard by merchant): the primary key and the unique key start with merchant_id.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: text("id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    livemode: livemode(),
    paymentId: text("payment_id").notNull(),
    /** The payment's invoice when it names one (`inv_…`); else null. */
    invoiceId: text("invoice_id"),
    /** Exact decimal in the payment's currency; read and written as a string. */
    amount: numeric("amount").notNull(),
    currency: text("currency").notNull(),
    status: text("status", { enum: refundStatuses }).notNull(),
    reason: text("reason", { enum: refundReasons }),
    note: text("note"),
    /** The processor's refund id: unique per merchant and mode, the key a second `POST refund` moves it by. */
    externalId: text("external_id"),
    failureReason: text("failure_reason"),
    /** SHA-256 of the claim link's token (crypto/refund-claim-token.ts); the token itself is never stored. */
    claimTokenHash: text("claim_token_hash"),
    claimExpiresAt: timestamptz("claim_expires_at"),
    /** The merchant's words to the payer on the claim page. */
    claimInstructions: text("claim_instructions"),
    /** Where the payer asked the money to go (free text), and on which network for crypto currencies. */
    destination: text("destination"),
    destinationNetwork: text("destination_network"),
    claimedAt: timestamptz("claimed_at"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    succeededAt: timestamptz("succeeded_at"),
    failedAt: timestamptz("failed_at"),
    canceledAt: timestamptz("canceled_at"),
  },
  (table) => [
    primaryKey({ name: "refunds_pkey", columns: [table.merchantId, table.id] }),
    uniqueIndex("refunds_merchant_external_key")
      .on(table.merchantId, table.livemode, table.externalId)
      .where(sql`${table.externalId} is not null`),
    // Keyset pagination, newest first, within a merchant and mode.
    index("refunds_merchant_created_idx").on(table.merchantId, table.livemode, table.createdAt.desc(), table.id.desc()),
    // A payment's refunds: the sum checked under its lock on every new refund.
    index("refunds_merchant_payment_idx").on(table.merchantId, table.paymentId),
    index("refunds_merchant_invoice_idx").on(table.merchantId, table.invoiceId),
    // Statistics: succeeded refunds per day and currency.
    index("refunds_merchant_succeeded_idx").on(table.merchantId, table.livemode, table.succeededAt).where(sql`${table.status} = 'succeeded'`),
    // The claim page finds its refund by the token's digest; the expiry job reads only claims still waiting.
    index("refunds_claim_token_idx").on(table.claimTokenHash),
    index("refunds_claim_due_idx").on(table.claimExpiresAt).where(sql`${table.status} = 'requires_action'`),
  ],
);

export type RefundRow = typeof refunds.$inferSelect;
