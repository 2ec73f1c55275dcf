import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/lib/ids";
import { payments } from "../../src/server/db/schema";
import { toPayment } from "../../src/server/services/payments/schemas";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { externalId } from "../support/payments";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;
let api: TestClient;
let bulk: TestMerchant;
let shop: TestMerchant;
const shopPayments: Record<string, any> = {};

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  [bulk, shop] = await Promise.all([registerTestMerchant(api), registerTestMerchant(api)]);
  const seed: [string, Record<string, unknown>][] = [
    ["usdPending", { amount: "10.00", currency: "USD", status: "pending", reference: "order-1" }],
    ["usdConfirmed", { amount: "20.00", currency: "USD", reference: "order-2" }],
    ["eurConfirmed", { amount: "30.00", currency: "EUR", reference: "order-2" }],
    ["btcFailed", { amount: "0.1", currency: "BTC", status: "failed" }],
  ];
  for (const [name, body] of seed) {
    const response = await api.post("/payment/confirm", { key: shop.apiKey, body: { externalId: externalId(name), ...body } });
    expect(response.status).toBe(201);
    shopPayments[name] = response.body;
  }
});
afterAll(() => runtime.close());

const list = (query: Record<string, string | number | undefined>, merchant = shop) => api.get("/payment", { key: merchant.apiKey, query });

/** Rows straight into the table: 1,000 through the API would only test the API 1,000 times. */
async function insertPayments(merchantId: string, count: number, createdAt: (i: number) => Date | ReturnType<typeof sql>) {
  const rows = Array.from({ length: count }, (_, i) => ({
    id: newId("payment"),
    merchantId,
    externalId: externalId("bulk"),
    amount: "1.00",
    currency: "USD",
    status: "confirmed" as const,
    createdAt: createdAt(i) as Date,
  }));
  await runtime.database.db.insert(payments).values(rows);
  return rows.map((row) => row.id);
}

describe("GET /payment", () => {
  it("lists the merchant's own payments, newest first, with the default limit", async () => {
    const response = await list({});
    expect(response.status).toBe(200);
    expect(response.body.data.map((payment: { id: string }) => payment.id)).toEqual(
      ["btcFailed", "eurConfirmed", "usdConfirmed", "usdPending"].map((name) => shopPayments[name].id),
    );
    expect(response.body).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it.each([
    [{ status: "confirmed" }, ["eurConfirmed", "usdConfirmed"]],
    [{ status: "pending" }, ["usdPending"]],
    [{ currency: "USD" }, ["usdConfirmed", "usdPending"]],
    [{ currency: "btc" }, ["btcFailed"]],
    [{ reference: "order-2" }, ["eurConfirmed", "usdConfirmed"]],
    [{ reference: "order-2", currency: "EUR" }, ["eurConfirmed"]],
    [{ reference: "nope" }, []],
  ])("filters by %j", async (query, expected) => {
    const response = await list(query);
    expect(response.status).toBe(200);
    expect(response.body.data.map((payment: { id: string }) => payment.id)).toEqual(expected.map((name) => shopPayments[name].id));
  });

  it("filters by externalId and by a created window (from inclusive, to exclusive)", async () => {
    const target = shopPayments.eurConfirmed;
    expect((await list({ externalId: target.externalId })).body.data).toEqual([target]);
    const window = await list({ createdFrom: target.createdAt, createdTo: shopPayments.btcFailed.createdAt });
    expect(window.body.data.map((payment: { id: string }) => payment.id)).toEqual([target.id]);
  });

  it.each([
    [{ limit: 0 }, "query.limit"],
    [{ limit: 101 }, "query.limit"],
    [{ limit: "ten" }, "query.limit"],
    // Read as written, not coerced: "1e2" is not 100, nor "0x10" 16.
    [{ limit: "1e2" }, "query.limit"],
    [{ limit: "0x10" }, "query.limit"],
    [{ limit: "2.5" }, "query.limit"],
    [{ status: "refunded" }, "query.status"],
    [{ createdFrom: "last week" }, "query.createdFrom"],
    // A window that ends before it starts matches nothing: say so rather than answer an empty page.
    [{ createdFrom: "2026-02-01T00:00:00Z", createdTo: "2026-01-31T23:00:00+02:00" }, "query.createdFrom"],
    [{ colour: "blue" }, "query.colour"], // an unknown parameter, named on its own path
  ])("refuses %j with 400", async (query, path) => {
    const response = await list(query as Record<string, string>);
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: { path: string }) => error.path)).toContain(path);
  });

  it("refuses a repeated limit with a message that says so", async () => {
    const response = await api.get("/payment?limit=5&limit=6", { key: shop.apiKey });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ path: "query.limit", message: "must be given once" }]);
    expect((await list({ limit: "2" })).body.data).toHaveLength(2);
  });

  it("renders every payment, in the list and by id, byte for byte as confirm and webhooks do (toPayment)", async () => {
    // Edge values PostgreSQL keeps and a JS Date cannot (microseconds, early years) must render as they do
    // everywhere else.
    const merchant = await registerTestMerchant(api);
    const id = newId("payment");
    await runtime.database.db.insert(payments).values({
      id,
      merchantId: merchant.merchant.id,
      externalId: "edge-\u00e9\u{1F600}",
      amount: "123456789012345678.12345678",
      currency: "BTC",
      status: "failed",
      reference: 'quote " and \\ backslash',
      network: "bitcoin",
      metadata: { nested: { list: [1, 2.5, "x", null, true] }, big: 12345678901234, "a-key": "\u00fc\n" },
      // Microseconds PostgreSQL keeps and a JS Date truncates: .999999 must not round up to the next second.
      occurredAt: sql`'1999-12-31 23:59:59.999999+00'::timestamptz` as unknown as Date,
      failedAt: sql`'2026-02-28 12:00:00.0005+00'::timestamptz` as unknown as Date,
      // The first year accepted (lib/iso-input.ts; PostgreSQL prints it as 0100), and a fraction PostgreSQL prints without its trailing zero.
      confirmedAt: sql`'0100-01-01 00:00:00.12+00'::timestamptz` as unknown as Date,
      reconciledAt: new Date("2026-03-01T00:00:00.000Z"),
    });
    const single = await api.get(`/payment/${id}`, { key: merchant.apiKey });
    expect(single.status).toBe(200);
    const [stored] = await runtime.database.db.select().from(payments).where(eq(payments.id, id));
    expect(single.text).toBe(JSON.stringify(toPayment(stored!)));
    expect(single.body).toMatchObject({
      occurredAt: "1999-12-31T23:59:59.999Z",
      failedAt: "2026-02-28T12:00:00.000Z",
      confirmedAt: "0100-01-01T00:00:00.120Z",
      reconciledAt: "2026-03-01T00:00:00.000Z",
    });
    for (const query of [{}, { status: "failed" }, { currency: "BTC", reference: 'quote " and \\ backslash' }]) {
      const page = await list(query, merchant);
      expect(page.status).toBe(200);
      expect(page.body.data).toHaveLength(1);
      expect(JSON.stringify(page.body.data[0])).toBe(single.text);
    }
  });

  it("refuses a tampered cursor, and another merchant's cursor, with 400 invalid_cursor", async () => {
    const page = await list({ limit: 1 });
    const cursor: string = page.body.nextCursor;
    const [payload, mac] = cursor.split(".");
    const forged = Buffer.from(JSON.stringify({ t: "2099-01-01T00:00:00.000000Z", i: shopPayments.btcFailed.id })).toString("base64url");
    // The MAC with its first character changed: that character carries six bits of the first byte, so the MAC
    // always differs. (Overwriting the last two with "AA" left it unchanged when it already ended so: 1 run in 4,096.)
    const tamperedMac = `${mac!.startsWith("A") ? "B" : "A"}${mac!.slice(1)}`;
    for (const bad of [`${forged}.${mac}`, `${payload}.${tamperedMac}`, "garbage", `${payload}`]) {
      const response = await list({ cursor: bad });
      expect(response.status, bad).toBe(400);
      expect(response.body.code).toBe("invalid_cursor");
    }
    const foreign = await list({ cursor }, bulk);
    expect(foreign.status).toBe(400);
    expect(foreign.body.code).toBe("invalid_cursor");
  });

  it("walks 1,000 payments page by page while new ones arrive: each exactly once, in order", async () => {
    const base = Date.now() - 3_600_000;
    // Ties on purpose: ten rows per millisecond, and a hundred with microsecond timestamps from the database.
    const original = [
      ...(await insertPayments(bulk.merchant.id, 900, (i) => new Date(base + Math.floor(i / 10)))),
      ...(await insertPayments(bulk.merchant.id, 100, () => sql`now() - random() * interval '1 hour'`)),
    ];
    const seen: string[] = [];
    let previous: { createdAt: string; id: string } | undefined;
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await list({ limit: 37, cursor }, bulk);
      expect(page.status).toBe(200);
      for (const payment of page.body.data) {
        // Newest first (createdAt is shown to the millisecond; ties are ordered by the database's microseconds and id).
        if (previous) expect(payment.createdAt <= previous.createdAt).toBe(true);
        previous = payment;
        seen.push(payment.id);
      }
      cursor = page.body.nextCursor ?? undefined;
      expect(cursor === undefined).toBe(!page.body.hasMore);
      // Newer payments arriving mid-walk sort before the cursor: they must not disturb the pages after it.
      await insertPayments(bulk.merchant.id, 3, () => new Date());
      pages++;
    } while (cursor);

    expect(new Set(seen).size).toBe(seen.length);
    const seenSet = new Set(seen);
    expect(original.filter((id) => !seenSet.has(id))).toEqual([]);
    expect(pages).toBe(Math.ceil(1000 / 37));
  });
});

describe("GET /payment/{id}", () => {
  it("returns the merchant's payment", async () => {
    const response = await api.get(`/payment/${shopPayments.usdConfirmed.id}`, { key: shop.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(shopPayments.usdConfirmed);
  });

  it("answers another merchant's payment, an unknown id and junk with the same 404", async () => {
    for (const id of [shopPayments.usdConfirmed.id, newId("payment"), "not-an-id", "pay_%00"]) {
      const response = await api.get(`/payment/${encodeURIComponent(id)}`, { key: bulk.apiKey });
      expect(response.status).toBe(404);
      expect(response.body.code).toBe("not_found");
      expect(response.body.detail).toBe("No such payment.");
    }
  });

  it("needs an API key", async () => {
    expect((await api.get(`/payment/${shopPayments.usdConfirmed.id}`)).status).toBe(401);
    expect((await api.get("/payment")).status).toBe(401);
  });
});
