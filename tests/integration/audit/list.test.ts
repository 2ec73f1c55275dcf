import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testClient, type TestClient } from "../../support/client";
import { dashboardAs, merchantSession } from "../../support/dashboard";
import { createTestKey, registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";

let runtime: TestRuntime;
let api: TestClient;
let shopA: TestMerchant;
let shopB: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  shopA = await registerTestMerchant(api);
  shopB = await registerTestMerchant(api);
  const headers = { "x-forwarded-for": "198.51.100.4", "user-agent": "export-test" };
  for (const name of ["A one", "A two", "A three"]) {
    expect((await api.put(`/merchant/${shopA.merchant.id}`, { key: shopA.apiKey, body: { name }, headers })).status).toBe(200);
  }
  expect((await api.put(`/merchant/${shopB.merchant.id}`, { key: shopB.apiKey, body: { name: "B one" } })).status).toBe(200);
  await createTestKey(api, shopA, "ci");
});
afterAll(() => runtime.close());

const list = (shop: TestMerchant, query: Record<string, string | number> = {}) => api.get("/audit-log", { key: shop.apiKey, query });

describe("GET audit-log", () => {
  it("answers the merchant's own entries, newest first, with actor, address, User-Agent and what changed", async () => {
    const response = await list(shopA, { action: "merchant.updated" });
    expect(response.status).toBe(200);
    expect(response.body.data.map((entry: { details: { changes: { name: { to: string } } } }) => entry.details.changes.name.to)).toEqual(["A three", "A two", "A one"]);
    expect(response.body.data[0]).toMatchObject({ actorType: "api_key", ip: "198.51.100.4", userAgent: "export-test", targetId: shopA.merchant.id });
    expect(response.body.data[0]).not.toHaveProperty("merchantId");
  });

  it("never shows another merchant's entries, whatever the filter names", async () => {
    const all = await list(shopB, { limit: 100 });
    expect(all.status).toBe(200);
    const targets = all.body.data.map((entry: { targetId: string | null }) => entry.targetId);
    expect(targets).not.toContain(shopA.merchant.id);
    const [keyOfA] = (await list(shopA, { action: "api_key.*" })).body.data;
    expect(keyOfA).toBeDefined();
    expect((await list(shopB, { actor: keyOfA.actorId })).body.data).toEqual([]);
  });

  it("pages with a cursor, and a cursor of another merchant's list is refused", async () => {
    const first = await list(shopA, { limit: 2 });
    expect(first.body).toMatchObject({ hasMore: true });
    const second = await list(shopA, { limit: 2, cursor: first.body.nextCursor });
    expect(second.status).toBe(200);
    const ids = [...first.body.data, ...second.body.data].map((entry: { id: string }) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    const foreign = await list(shopB, { limit: 2, cursor: first.body.nextCursor });
    expect(foreign.status).toBe(400);
    expect(foreign.body.code).toBe("invalid_cursor");
  });

  it("filters by kind of actor, action prefix and time range", async () => {
    const byKeys = await list(shopA, { actor: "api_key", limit: 100 });
    expect(byKeys.body.data.every((entry: { actorType: string }) => entry.actorType === "api_key")).toBe(true);
    const keyActions = await list(shopA, { action: "api_key.*" });
    const actions: string[] = keyActions.body.data.map((entry: { action: string }) => entry.action);
    expect(actions).toContain("api_key.created");
    expect(actions.every((action) => action.startsWith("api_key."))).toBe(true);
    const future = await list(shopA, { since: "2999-01-01T00:00:00Z" });
    expect(future.body.data).toEqual([]);
  });

  it("refuses bad filters with 400 naming the field", async () => {
    for (const [query, path] of [
      [{ actor: "someone else" }, "query.actor"],
      [{ action: "DROP TABLE" }, "query.action"],
      [{ since: "yesterday" }, "query.since"],
      [{ since: "2026-02-01T00:00:00Z", until: "2026-01-01T00:00:00Z" }, "query.since"],
      [{ limit: 1000 }, "query.limit"],
      // An unknown parameter (no merchant can be named: the key's is the only one).
      [{ merchantId: shopB.merchant.id }, "query.merchantId"],
    ] as const) {
      const response = await list(shopA, query);
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(response.body.errors.map((error: { path: string }) => error.path)).toContain(path);
    }
  });

  it("is refused to a test key (403), which may not read the account's log", async () => {
    const testKey = await createTestKey(api, shopB, "ci");
    const response = await api.get("/audit-log", { key: testKey });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe("forbidden");
  });
});

describe("the dashboard's auditLog.list", () => {
  it("answers the signed-in merchant's entries only, with the same filters", async () => {
    const page = await dashboardAs(runtime, merchantSession(shopA)).auditLog.list({ action: "merchant.*", limit: 10 });
    expect(page.data.map((entry) => entry.action)).toEqual(["merchant.updated", "merchant.updated", "merchant.updated", "merchant.registered"]);
    const ofB = await dashboardAs(runtime, merchantSession(shopB)).auditLog.list({ limit: 100 });
    expect(ofB.data.some((entry) => entry.targetId === shopA.merchant.id)).toBe(false);
  });

  it("refuses a bad filter with the field named, and a signed-out caller", async () => {
    await expect(dashboardAs(runtime, merchantSession(shopA)).auditLog.list({ actor: "not an id" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(dashboardAs(runtime, null).auditLog.list({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
