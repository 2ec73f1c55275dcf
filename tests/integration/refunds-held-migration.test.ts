import { describe, expect, it } from "vitest";
import { useDatabaseBefore } from "../support/migrations-before";

/*
 * The held-amount migration (drizzle/0023_refunds_held_amount.sql) on a database with refunds recorded before it:
 * each payment's `amount_held` becomes the sum of its refunds that hold part of it (requires_action, pending,
 * succeeded; not failed or canceled), so the next refund is checked against them (services/refunds/held.ts).
 * Payments without refunds, or only failed and canceled ones, hold nothing. On PGlite and, with DATABASE_URL, on
 * the server.
 */

const MIGRATION = "refunds_held_amount";

const database = useDatabaseBefore(MIGRATION);

describe("the held-amount migration", () => {
  it("holds on each payment the sum of its requires_action, pending and succeeded refunds", async () => {
    const q = database().query;
    const shop = "mer_01jd7z8x0m4e5t6y7v8w9a0b1c";
    const other = "mer_01jd7z8x0m4e5t6y7v8w9a0b1d";
    for (const id of [shop, other]) await q(`insert into merchants (id, name, email) values ($1, 'Shop', $2)`, [id, `${id}@example.com`]);
    const payment = (merchantId: string, id: string, amount: string) =>
      q(`insert into payments (id, merchant_id, external_id, amount, currency, status) values ($1, $2, $1, $3, 'USD', 'confirmed')`, [id, merchantId, amount]);
    // The same payment id under two merchants: each merchant's refunds count for its own payment only.
    await payment(shop, "pay_mixed", "100.00");
    await payment(other, "pay_mixed", "50.00");
    await payment(shop, "pay_untouched", "20.00");
    await payment(shop, "pay_released", "30.00");
    let n = 0;
    const refund = (merchantId: string, paymentId: string, amount: string, status: string) =>
      q(`insert into refunds (id, merchant_id, payment_id, amount, currency, status) values ($1, $2, $3, $4, 'USD', $5)`, [`re_${++n}`, merchantId, paymentId, amount, status]);
    await refund(shop, "pay_mixed", "10.00", "succeeded");
    await refund(shop, "pay_mixed", "5.50", "pending");
    await refund(shop, "pay_mixed", "2.25", "requires_action");
    await refund(shop, "pay_mixed", "40.00", "failed");
    await refund(shop, "pay_mixed", "30.00", "canceled");
    await refund(other, "pay_mixed", "1.00", "succeeded");
    await refund(shop, "pay_released", "30.00", "canceled");

    await database().migrateToEnd();

    const held = await q(`select merchant_id, id, amount_held::text as held from payments order by merchant_id, id`);
    expect(held).toEqual([
      { merchant_id: shop, id: "pay_mixed", held: "17.75" },
      { merchant_id: shop, id: "pay_released", held: "0" },
      { merchant_id: shop, id: "pay_untouched", held: "0" },
      { merchant_id: other, id: "pay_mixed", held: "1.00" },
    ]);
  });
});
