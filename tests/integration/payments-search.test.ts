import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/lib/ids";
import type { SessionUser } from "../../src/server/auth/session";
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
const staffUser: SessionUser = { id: newId("user"), email: "support@example.com", role: "staff", merchantId: null };

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
    const owner: SessionUser = { id: newId("user"), email: shop.merchant.email, role: "merchant", merchantId: shop.merchant.id };
    const caller = createCallerFactory(appRouter)(createTrpcContext(runtime, owner));
    await caller.payments.markReconciled({ paymentId: ids.axb!, note: "statement 3" });
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
