import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/lib/ids";
import { events, payments, webhookDeliveries, type DeliveryStatus, type PaymentStatus } from "../../src/server/db/schema";
import { createCallerFactory, createTrpcContext } from "../../src/server/trpc/init";
import { appRouter } from "../../src/server/trpc/router";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { externalId } from "../support/payments";
import { createTestRuntime, type TestRuntime } from "../support/runtime";
import { defaultEndpointId } from "./webhooks/seed";

let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;
let other: TestMerchant;

const DAY = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);
const dayOffset = (days: number) => new Date(Date.parse(`${today()}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
const at = (day: string, hour = 1) => new Date(`${day}T0${hour}:00:00Z`);

async function insertPayment(merchantId: string, day: string, status: PaymentStatus, amount: string, currency: string, occurredDay?: string) {
  await runtime.database.db.insert(payments).values({
    id: newId("payment"),
    merchantId,
    externalId: externalId(),
    amount,
    currency,
    status,
    occurredAt: occurredDay ? at(occurredDay) : null,
    createdAt: at(day),
    updatedAt: at(day),
  });
}

async function insertDelivery(merchantId: string, status: DeliveryStatus, day = today()) {
  const eventId = newId("event");
  await runtime.database.db.insert(events).values({ id: eventId, merchantId, type: "payment.confirmed", data: {}, createdAt: at(day) });
  await runtime.database.db
    .insert(webhookDeliveries)
    .values({
      id: newId("delivery"),
      merchantId,
      eventId,
      eventCreatedAt: at(day),
      endpointId: await defaultEndpointId(runtime.database.db, merchantId),
      url: "https://hooks.example",
      status,
      createdAt: at(day),
      updatedAt: at(day),
    });
}

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  [shop, other] = await Promise.all([registerTestMerchant(api), registerTestMerchant(api)]);
  const id = shop.merchant.id;
  // Today: 0.10 + 0.20 USD and 0.1 + 0.2 ETH confirmed (a float would say 0.30000000000000004), one pending, one failed.
  await insertPayment(id, today(), "confirmed", "0.10", "USD");
  await insertPayment(id, today(), "confirmed", "0.20", "USD");
  await insertPayment(id, today(), "confirmed", "0.100000000000000000", "ETH");
  await insertPayment(id, today(), "confirmed", "0.200000000000000000", "ETH");
  await insertPayment(id, today(), "pending", "5.00", "USD");
  await insertPayment(id, today(), "failed", "7.00", "USD");
  // Ten days ago: one confirmed JPY. Forty days ago (outside the default window): a large confirmed USD.
  await insertPayment(id, dayOffset(-10), "confirmed", "1500", "JPY");
  await insertPayment(id, dayOffset(-40), "confirmed", "1000000.00", "USD");
  // Another merchant's payment, same day and currency: never counted.
  await insertPayment(other.merchant.id, today(), "confirmed", "99.00", "USD");

  for (const status of ["delivered", "delivered", "delivered", "failed", "pending", "delivering"] as const) {
    await insertDelivery(id, status);
  }
  await insertDelivery(id, "failed", dayOffset(-40));
  await insertDelivery(other.merchant.id, "failed");
});
afterAll(() => runtime.close());

const stats = (query: Record<string, string> = {}, merchant = shop, id = merchant.merchant.id) =>
  api.get(`/merchant/${id}/stats`, { key: merchant.apiKey, query });

describe("GET /merchant/{id}/stats", () => {
  it("covers the last 30 days by default: counts, exact per-currency volume, a zero-filled daily series", async () => {
    const response = await stats();
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body).toMatchObject({ merchantId: shop.merchant.id, from: dayOffset(-29), to: today() });
    expect(body.payments).toEqual({ total: 7, pending: 1, confirmed: 5, failed: 1 });
    expect(body.volume).toEqual([
      { currency: "ETH", amount: "0.300000000000000000", count: 2 },
      { currency: "JPY", amount: "1500", count: 1 },
      { currency: "USD", amount: "0.30", count: 2 },
    ]);
    expect(body.daily).toHaveLength(30);
    expect(body.daily[0].date).toBe(dayOffset(-29));
    expect(body.daily.at(-1)).toEqual({
      date: today(),
      count: 6,
      volume: [
        { currency: "ETH", amount: "0.300000000000000000" },
        { currency: "USD", amount: "0.30" },
      ],
    });
    expect(body.daily.find((day: { date: string }) => day.date === dayOffset(-10))).toEqual({
      date: dayOffset(-10),
      count: 1,
      volume: [{ currency: "JPY", amount: "1500" }],
    });
    expect(body.daily.reduce((sum: number, day: { count: number }) => sum + day.count, 0)).toBe(body.payments.total);
    expect(body.webhooks).toEqual({ delivered: 3, pending: 2, failed: 1, successRate: 0.75 });
  });

  it("takes a from/to window of UTC days, both inclusive", async () => {
    const response = await stats({ from: dayOffset(-40), to: dayOffset(-10) });
    expect(response.status).toBe(200);
    expect(response.body.payments).toEqual({ total: 2, pending: 0, confirmed: 2, failed: 0 });
    expect(response.body.volume).toEqual([
      { currency: "JPY", amount: "1500", count: 1 },
      { currency: "USD", amount: "1000000.00", count: 1 },
    ]);
    expect(response.body.daily).toHaveLength(31);
    expect(response.body.webhooks).toEqual({ delivered: 0, pending: 0, failed: 1, successRate: 0 });
  });

  it("answers an empty window with zeros and a null success rate", async () => {
    const response = await stats({ from: "2020-01-01", to: "2020-01-01" });
    expect(response.body).toMatchObject({
      payments: { total: 0, pending: 0, confirmed: 0, failed: 0 },
      volume: [],
      daily: [{ date: "2020-01-01", count: 0, volume: [] }],
      webhooks: { delivered: 0, pending: 0, failed: 0, successRate: null },
    });
  });

  it.each([
    [{ from: "2026-02-01", to: "2026-01-01" }, "query.from"],
    [{ from: "2024-01-01", to: "2025-01-01" }, "query.from"],
    [{ from: "2026-02-30" }, "query.from"],
    [{ to: "tomorrow" }, "query.to"],
    [{ days: "7" }, "query.days"], // an unknown parameter, named on its own path
    [{ basis: "updated" }, "query.basis"],
  ])("refuses %j with 400", async (query, path) => {
    const response = await stats(query);
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: { path: string }) => error.path)).toContain(path);
  });

  it("allows a window of exactly 366 days", async () => {
    const response = await stats({ from: "2024-01-01", to: "2024-12-31" });
    expect(response.status).toBe(200);
    expect(response.body.daily).toHaveLength(366);
  });

  it("answers another merchant's id, or an unknown one, with 404", async () => {
    for (const id of [other.merchant.id, newId("merchant"), "junk"]) {
      const response = await stats({}, shop, id);
      expect(response.status).toBe(404);
      expect(response.body.code).toBe("not_found");
    }
    expect((await api.get(`/merchant/${shop.merchant.id}/stats`)).status).toBe(401);
  });

  it("places payments by when they happened with basis=occurred (occurredAt, else creation)", async () => {
    const importer = await registerTestMerchant(api);
    const id = importer.merchant.id;
    // Imported today: two payments that happened 20 and 50 days ago, and one without an occurredAt.
    await insertPayment(id, today(), "confirmed", "10.00", "EUR", dayOffset(-20));
    await insertPayment(id, today(), "confirmed", "20.00", "EUR", dayOffset(-50));
    await insertPayment(id, today(), "pending", "5.00", "EUR");

    const byCreation = (await stats({}, importer)).body;
    expect(byCreation.payments.total).toBe(3);
    expect(byCreation.daily.at(-1).count).toBe(3);

    const byOccurrence = await stats({ basis: "occurred" }, importer);
    expect(byOccurrence.status).toBe(200);
    // The 50-day-old one falls outside the default 30-day window; the others land on their own days.
    expect(byOccurrence.body.payments).toEqual({ total: 2, pending: 1, confirmed: 1, failed: 0 });
    expect(byOccurrence.body.volume).toEqual([{ currency: "EUR", amount: "10.00", count: 1 }]);
    expect(byOccurrence.body.daily.find((day: { date: string }) => day.date === dayOffset(-20)).count).toBe(1);
    expect(byOccurrence.body.daily.at(-1).count).toBe(1);
    const longer = (await stats({ basis: "occurred", from: dayOffset(-60) }, importer)).body;
    expect(longer.payments.total).toBe(3);
  });

  it("serves the dashboard the same figures over tRPC", async () => {
    const caller = createCallerFactory(appRouter)(
      createTrpcContext(runtime, { id: newId("user"), email: "owner@example.com", role: "merchant", merchantId: shop.merchant.id, access: "member:owner" }),
    );
    const viaTrpc = await caller.payments.stats({});
    expect(viaTrpc).toEqual((await stats()).body);
  });
});
