import { and, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events, payments, webhookDeliveries } from "../../src/server/db/schema";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { externalId } from "../support/payments";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  shop = await registerTestMerchant(api, { webhookUrl: "https://hooks.example/payments" });
  other = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

const confirm = (body: Record<string, unknown>, merchant = shop) => api.post("/payment/confirm", { key: merchant.apiKey, body });

async function eventsFor(paymentId: string) {
  return runtime.database.db.select().from(events).where(eq(events.subjectId, paymentId)).orderBy(events.createdAt);
}

describe("POST /payment/confirm", () => {
  it("records a new payment (default confirmed) with 201, one event and its outbox delivery", async () => {
    const response = await confirm({ externalId: externalId(), amount: "19.99", currency: "USD", reference: "order-1", metadata: { cart: 7 } });
    expect(response.status).toBe(201);
    const payment = response.body;
    expect(payment).toMatchObject({ amount: "19.99", currency: "USD", status: "confirmed", reference: "order-1", metadata: { cart: 7 } });
    expect(payment.id).toMatch(/^pay_/);
    expect(payment.confirmedAt).not.toBeNull();
    expect(payment.failedAt).toBeNull();

    const emitted = await eventsFor(payment.id);
    expect(emitted.map((event) => event.type)).toEqual(["payment.confirmed"]);
    expect(emitted[0]!.id).toMatch(/^evt_/);
    expect(emitted[0]!.data).toEqual(payment);
    const deliveries = await runtime.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, emitted[0]!.id));
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ status: "pending", url: "https://hooks.example/payments", merchantId: shop.merchant.id });
  });

  it("answers with the payment exactly as later reads return it (metadata in stored key order, amount, times)", async () => {
    const body = {
      externalId: externalId(),
      amount: "5",
      currency: "EUR",
      status: "pending",
      method: "card",
      occurredAt: "2026-11-20T10:00:00.123Z",
      metadata: { zeta: { b: [1, "x"], a: null }, a: 1.5, mid: "é", longer_key: true },
    };
    const created = await confirm(body);
    expect(created.status).toBe(201);
    const read = await api.get(`/payment/${created.body.id}`, { key: shop.apiKey });
    expect(read.text).toBe(created.text);
    expect(created.body).toMatchObject({ amount: "5.00", occurredAt: "2026-11-20T10:00:00.123Z", confirmedAt: null, metadata: body.metadata });
  });

  it("leaves no payment, event or delivery behind when the transaction fails after writing them", async () => {
    const db = runtime.database.db;
    const count = async () => ({
      payments: (await db.select().from(payments).where(eq(payments.merchantId, shop.merchant.id))).length,
      events: (await db.select().from(events).where(eq(events.merchantId, shop.merchant.id))).length,
    });
    const before = await count();
    // The outbox row is the last write of the transaction: make it fail.
    await db.execute(sql`create function refuse_delivery() returns trigger language plpgsql as $$ begin raise exception 'refused by test'; end $$`);
    await db.execute(sql`create trigger refuse_delivery before insert on webhook_deliveries for each row execute function refuse_delivery()`);
    try {
      const id = externalId();
      const response = await confirm({ externalId: id, amount: "4.00", currency: "USD" });
      expect(response.status).toBe(500);
      expect(response.text).not.toContain("refused by test");
      expect(await db.select().from(payments).where(eq(payments.externalId, id))).toHaveLength(0);
      expect(await count()).toEqual(before);
    } finally {
      await db.execute(sql`drop trigger refuse_delivery on webhook_deliveries`);
      await db.execute(sql`drop function refuse_delivery()`);
    }
  });

  it("writes the event but no delivery for a merchant without a webhook URL", async () => {
    const response = await confirm({ externalId: externalId(), amount: "1", currency: "JPY" }, other);
    expect(response.status).toBe(201);
    const emitted = await eventsFor(response.body.id);
    expect(emitted).toHaveLength(1);
    const deliveries = await runtime.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, emitted[0]!.id));
    expect(deliveries).toHaveLength(0);
  });

  it("moves pending → confirmed with 200 and a second event; the same status again is 200 with no event", async () => {
    const id = externalId();
    const created = await confirm({ externalId: id, amount: "0.5", currency: "BTC", status: "pending", network: "bitcoin" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: "pending", amount: "0.50000000", confirmedAt: null });

    const confirmed = await confirm({ externalId: id, amount: "0.50000000", currency: "btc", status: "confirmed", method: "onchain" });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ id: created.body.id, status: "confirmed", method: "onchain", network: "bitcoin" });
    expect(confirmed.body.confirmedAt).not.toBeNull();

    const again = await confirm({ externalId: id, amount: "0.5", currency: "BTC", status: "confirmed" });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(confirmed.body);
    expect((await eventsFor(created.body.id)).map((event) => event.type)).toEqual(["payment.pending", "payment.confirmed"]);
  });

  it("moves pending → failed, and records a failed payment directly", async () => {
    const id = externalId();
    await confirm({ externalId: id, amount: "10.00", currency: "EUR", status: "pending" });
    const failed = await confirm({ externalId: id, amount: "10", currency: "EUR", status: "failed" });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: "failed", confirmedAt: null });
    expect(failed.body.failedAt).not.toBeNull();
    expect((await eventsFor(failed.body.id)).map((event) => event.type)).toEqual(["payment.pending", "payment.failed"]);

    const direct = await confirm({ externalId: externalId(), amount: "3", currency: "EUR", status: "failed" });
    expect(direct.status).toBe(201);
    expect((await eventsFor(direct.body.id)).map((event) => event.type)).toEqual(["payment.failed"]);
  });

  it.each([
    ["confirmed", "failed"],
    ["confirmed", "pending"],
    ["failed", "confirmed"],
    ["failed", "pending"],
  ])("refuses %s → %s with 409 invalid_transition and changes nothing", async (from, to) => {
    const id = externalId();
    const created = await confirm({ externalId: id, amount: "5.00", currency: "USD", status: from });
    const response = await confirm({ externalId: id, amount: "5.00", currency: "USD", status: to });
    expect(response.status).toBe(409);
    expect(response.body.code).toBe("invalid_transition");
    const [row] = await runtime.database.db.select().from(payments).where(eq(payments.id, created.body.id));
    expect(row!.status).toBe(from);
    expect(await eventsFor(created.body.id)).toHaveLength(1);
  });

  it("answers another amount or currency for the same externalId with 409 payment_conflict", async () => {
    const id = externalId();
    await confirm({ externalId: id, amount: "5.00", currency: "USD", status: "pending" });
    for (const change of [{ amount: "5.01", currency: "USD" }, { amount: "5.00", currency: "EUR" }]) {
      const response = await confirm({ externalId: id, status: "confirmed", ...change });
      expect(response.status).toBe(409);
      expect(response.body.code).toBe("payment_conflict");
    }
    const [row] = await runtime.database.db.select().from(payments).where(eq(payments.externalId, id));
    expect(row).toMatchObject({ status: "pending", amount: "5.00", currency: "USD" });
  });

  it("keys payments per merchant: the same externalId at two merchants is two payments", async () => {
    const id = externalId();
    const mine = await confirm({ externalId: id, amount: "1.00", currency: "USD" });
    const theirs = await confirm({ externalId: id, amount: "2.00", currency: "USD" }, other);
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it("stores amounts as exact numeric, up to 18 decimals", async () => {
    const response = await confirm({ externalId: externalId(), amount: "123456789.123456789012345678", currency: "ETH" });
    expect(response.status).toBe(201);
    expect(response.body.amount).toBe("123456789.123456789012345678");
    const [row] = await runtime.database.db.select().from(payments).where(eq(payments.id, response.body.id));
    expect(row!.amount).toBe("123456789.123456789012345678");
  });

  const invalid: [Record<string, unknown>, string, string?][] = [
    [{ amount: "0" }, "body.amount"],
    [{ amount: "-1.00" }, "body.amount"],
    [{ amount: "1.001" }, "body.amount"],
    [{ amount: 19.99 }, "body.amount"],
    [{ amount: "1e2" }, "body.amount"],
    [{ currency: "XYZ" }, "body.currency"],
    [{ currency: "US$" }, "body.currency"],
    [{ status: "refunded" }, "body.status"],
    [{ externalId: "" }, "body.externalId"],
    [{ externalId: "x".repeat(256) }, "body.externalId", "a 256-character externalId"],
    [{ externalId: "nul\u0000byte" }, "body.externalId"],
    [{ reference: "lone \ud800 surrogate" }, "body.reference"],
    [{ occurredAt: "yesterday" }, "body.occurredAt"],
    [{ occurredAt: new Date(Date.now() + 3_600_000).toISOString() }, "body.occurredAt"],
    [{ metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i])) }, "body.metadata", "21 metadata keys"],
    [{ metadata: { big: "x".repeat(4100) } }, "body.metadata", "metadata over 4 KiB"],
    // Refused by the pipeline's input guard, which names the exact place.
    [{ metadata: { nested: { bad: "\u0000" } } }, "body.metadata.nested.bad"],
    [{ metadata: "not an object" }, "body.metadata"],
    [{ color: "blue" }, "body.color"], // an unknown field, named on its own path
  ];
  it.each(invalid.map(([change, path, label]) => ({ change, path, label: label ?? JSON.stringify(change) })))(
    "refuses $label with a 400 naming $path, and writes nothing",
    async ({ change, path }) => {
    const id = externalId();
    const response = await confirm({ externalId: id, amount: "1.00", currency: "USD", ...change });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("validation_failed");
    expect(response.body.errors.map((error: { path: string }) => error.path)).toContain(path);
    const rows = await runtime.database.db.select().from(payments).where(eq(payments.externalId, id));
    expect(rows).toHaveLength(0);
    },
  );

  it("accepts an occurredAt in the past, or within the clock-skew tolerance", async () => {
    const past = await confirm({ externalId: externalId(), amount: "1.00", currency: "USD", occurredAt: "2026-01-02T03:04:05+02:00" });
    expect(past.status).toBe(201);
    expect(past.body.occurredAt).toBe("2026-01-02T01:04:05.000Z");
    const skewed = new Date(runtime.now().getTime() + 60_000).toISOString();
    expect((await confirm({ externalId: externalId(), amount: "1.00", currency: "USD", occurredAt: skewed })).status).toBe(201);
  });

  it("refuses an occurredAt before the year 100 rather than store a time it would give back as 19xx or 20xx", async () => {
    const id = externalId();
    const refused = await confirm({ externalId: id, amount: "1.00", currency: "USD", occurredAt: "0049-06-01T00:00:00Z" });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ path: "body.occurredAt", message: "must be between the years 0100 and 9998" }]);
    expect(await runtime.database.db.select().from(payments).where(eq(payments.externalId, id))).toHaveLength(0);
    const earliest = await confirm({ externalId: externalId(), amount: "1.00", currency: "USD", occurredAt: "0100-01-01T00:00:00.5Z" });
    expect(earliest.status).toBe(201);
    expect(earliest.body.occurredAt).toBe("0100-01-01T00:00:00.500Z");
    const read = await api.get(`/payment/${earliest.body.id}`, { key: shop.apiKey });
    expect(read.body.occurredAt).toBe("0100-01-01T00:00:00.500Z");
  });

  it("needs an API key", async () => {
    const response = await api.post("/payment/confirm", { body: { externalId: "x", amount: "1.00", currency: "USD" } });
    expect(response.status).toBe(401);
  });

  it("answers arbitrary JSON bodies with 201 or 400, never a 500, and never a half-written row", async () => {
    const before = (await runtime.database.db.select().from(payments).where(eq(payments.merchantId, other.merchant.id))).length;
    let created = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            externalId: fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.constant(externalId())),
            amount: fc.oneof(fc.string(), fc.constantFrom("1", "0.01", "1.234", "-2", "1e3", "99999999999999999999"), fc.double()),
            currency: fc.oneof(fc.string(), fc.constantFrom("USD", "JPY", "BTC", "ETH", "XXX")),
            status: fc.oneof(fc.string(), fc.constantFrom("pending", "confirmed", "failed")),
            reference: fc.string({ unit: "binary" }),
            metadata: fc.oneof(fc.jsonValue(), fc.dictionary(fc.string({ unit: "binary" }), fc.jsonValue(), { maxKeys: 25 })),
            occurredAt: fc.oneof(fc.string(), fc.date({ noInvalidDate: true }).map((date) => date.toISOString())),
          },
          { requiredKeys: [] },
        ),
        async (body) => {
          const response = await confirm({ ...body, externalId: body.externalId ?? externalId() }, other);
          expect([200, 201, 400, 409]).toContain(response.status);
          if (response.status === 201) created++;
        },
      ),
      { numRuns: 150 },
    );
    const after = await runtime.database.db.select().from(payments).where(eq(payments.merchantId, other.merchant.id));
    expect(after.length).toBe(before + created);
    for (const row of after) {
      const [event] = await runtime.database.db
        .select()
        .from(events)
        .where(and(eq(events.subjectId, row.id), eq(events.merchantId, other.merchant.id)));
      expect(event, `payment ${row.id} has its event`).toBeDefined();
    }
  });
});
