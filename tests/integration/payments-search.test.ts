import { submitted } from "../support/dashboard";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/lib/ids";
import type { SessionUser } from "../../src/server/services/users/session-user";
import { SEARCH_RECENT_ROWS } from "../../src/server/services/payments/list";
import { createCallerFactory, createTrpcContext } from "../../src/server/trpc/init";
import { appRouter } from "../../src/server/trpc/router";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;
let other: TestMerchant;
const ids: Record<string, string> = {};
const staffUser: SessionUser = { id: newId("user"), email: "support@example.com", role: "staff", merchantId: null, access: "staff:admin" };

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  [shop, other] = await Promise.all([registerTestMerchant(api), registerTestMerchant(api)]);
  const confirm = async (merchant: TestMerchant, name: string, body: Record<string, unknown>) => {
    const response = await api.post("/payment/confirm", { key: merchant.apiKey, body: { amount: "1.00", currency: "EUR", ...body } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    ids[name] = response.body.id;
  };
  await confirm(shop, "order1029", { externalId: "ORDER-1029-a", reference: "bank line 77" });
  await confirm(shop, "order10290", { externalId: "order-10290", reference: "INV 5" });
  await confirm(shop, "percent", { externalId: "promo 100% off" });
  await confirm(shop, "underscore", { externalId: "a_b", reference: "x" });
  await confirm(shop, "axb", { externalId: "axb", reference: "y" });
  await confirm(other, "otherShop", { externalId: "ORDER-1029-z", reference: "bank line 77" });
});
afterAll(() => runtime.close());

const search = (query: Record<string, string>, merchant = shop) => api.get("/payment", { key: merchant.apiKey, query });
const found = async (query: Record<string, string>) => {
  const response = await search(query);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body.data as { id: string }[]).map((payment) => payment.id).sort();
};

describe("payment search (q): prefix or substring of external id, reference or payment id", () => {
  it("finds by any part of the external id, case-insensitively, only the merchant's own", async () => {
    expect(await found({ q: "1029" })).toEqual([ids.order1029, ids.order10290].sort());
    expect(await found({ q: "order-1029" })).toEqual([ids.order1029, ids.order10290].sort());
    expect(await found({ q: "029-A" })).toEqual([ids.order1029]);
  });

  it("finds by part of the reference and by the start or part of the payment id", async () => {
    expect(await found({ q: "line 7" })).toEqual([ids.order1029]);
    expect(await found({ q: ids.percent! })).toEqual([ids.percent]);
    expect(await found({ q: ids.percent!.slice(0, 12) })).toContain(ids.percent);
    expect(await found({ q: ids.axb!.slice(-10) })).toEqual([ids.axb]);
  });

  it("takes % and _ literally", async () => {
    expect(await found({ q: "100%" })).toEqual([ids.percent]);
    expect(await found({ q: "a_b" })).toEqual([ids.underscore]);
  });

  it("combines with the other filters and never shows another merchant's payment", async () => {
    expect(await found({ q: "1029", status: "pending" })).toEqual([]);
    expect(await found({ q: "zzz-nothing" })).toEqual([]);
    const theirs = await search({ q: "1029-z" }, other);
    expect(theirs.body.data.map((payment: { id: string }) => payment.id)).toEqual([ids.otherShop]);
  });

  it.each([
    [{ q: "" }, "query.q"],
    [{ q: "   " }, "query.q"],
    [{ q: "x".repeat(256) }, "query.q"],
    [{ reconciled: "maybe" }, "query.reconciled"],
  ])("refuses %j with 400 naming the field", async (query, path) => {
    const response = await search(query);
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: { path: string }) => error.path)).toContain(path);
  });
});

describe("reconciled filter and the result count", () => {
  it("filters by reconciled and counts what the filters match", async () => {
    const owner: SessionUser = { id: newId("user"), email: shop.merchant.email, role: "merchant", merchantId: shop.merchant.id, access: "member:owner" };
    const caller = createCallerFactory(appRouter)(createTrpcContext(runtime, owner));
    await caller.payments.markReconciled(submitted({ paymentId: ids.axb!, note: "statement 3" }));
    expect(await found({ reconciled: "true" })).toEqual([ids.axb]);
    expect(await found({ reconciled: "false" })).not.toContain(ids.axb);
    expect(await caller.payments.count({ q: "1029" })).toEqual({ count: 2, capped: false });
    expect(await caller.payments.count({})).toEqual({ count: 5, capped: false });
    expect(await caller.payments.count({ reconciled: "true" })).toEqual({ count: 1, capped: false });
  });
});

describe("staff search across merchants", () => {
  it("matches a part of an id across merchants, and logs the search", async () => {
    const caller = createCallerFactory(appRouter)(createTrpcContext(runtime, staffUser));
    const result = await caller.payments.staff.search({ query: "order-1029" });
    expect(result.data.map((payment) => payment.id).sort()).toEqual([ids.order1029, ids.order10290, ids.otherShop].sort());
    await expect(caller.payments.staff.search({ query: "  " })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("a search page in two steps: the newest rows first, then the trigram indexes", () => {
  it("finds a match older than the recent window, and pages a common term newest first without repeats", async () => {
    const bulk = await registerTestMerchant(api);
    const rows = SEARCH_RECENT_ROWS + 100;
    // Row 1 is the oldest and the only "needle"; every row is "bulk-<n>"; one a second apart, newest = highest n.
    await runtime.database.db.execute(sql`
      insert into payments (id, merchant_id, external_id, amount, currency, status, created_at, updated_at)
      select 'pay_' || lpad(g::text, 26, '0'), ${bulk.merchant.id}, case when g = 1 then 'needle-1' else 'bulk-' || g end,
             '1.00', 'EUR', 'confirmed', now() - ((${rows}::int - g) * interval '1 second'), now()
      from generate_series(1, ${rows}::int) g`);
    const page = async (query: Record<string, string>) => (await api.get("/payment", { key: bulk.apiKey, query })).body;

    const needle = await page({ q: "NEEDLE" });
    expect(needle.data.map((payment: { externalId: string }) => payment.externalId)).toEqual(["needle-1"]);

    const first = await page({ q: "bulk-", limit: "3" });
    expect(first.data.map((payment: { externalId: string }) => payment.externalId)).toEqual([`bulk-${rows}`, `bulk-${rows - 1}`, `bulk-${rows - 2}`]);
    const second = await page({ q: "bulk-", limit: "3", cursor: first.nextCursor });
    expect(second.data, JSON.stringify(second)).toBeDefined();
    expect(second.data.map((payment: { externalId: string }) => payment.externalId)).toEqual([`bulk-${rows - 3}`, `bulk-${rows - 4}`, `bulk-${rows - 5}`]);

    // Fewer matches in the window than a page: the second step adds the older ones, newest first, no repeats.
    // (rows = SEARCH_RECENT_ROWS + 100: the window holds bulk-101 and newer; bulk-51 is older.)
    const few = await page({ q: "bulk-51", limit: "25" });
    const expected = [`bulk-${rows}`, ...Array.from({ length: 10 }, (_, i) => `bulk-${519 - i}`), "bulk-51"].filter((id) => id.includes("bulk-51"));
    expect(few.data.map((payment: { externalId: string }) => payment.externalId)).toEqual(expected);
  });
});
