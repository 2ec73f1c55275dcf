import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys } from "../../src/server/db/schema";
import { createApiKey } from "../../src/server/services/api-keys/create";
import { listApiKeys } from "../../src/server/services/api-keys/list";
import { revokeApiKey } from "../../src/server/services/api-keys/revoke";
import { rollApiKey } from "../../src/server/services/api-keys/roll";
import { RESTRICTED_KEY_RESOURCES } from "../../src/server/auth/permissions";
import { testClient, type TestClient } from "../support/client";
import { merchantUser, serviceContext } from "../support/context";
import { dashboardAs, merchantSession, submitted } from "../support/dashboard";
import { dumpAllTables } from "../support/dump";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { externalId } from "../support/payments";
import { createTestRuntime, type TestRuntime } from "../support/runtime";
import { snapshotTables } from "../support/restricted-keys";
import { rowsOf } from "../support/dump";
import { refuseOutsideScope } from "../../src/server/http/scope";
import { routes } from "../../src/server/http/routes";
import { verifyAuditChains } from "../../src/server/db/sql/audit-verify";
import { inTransaction } from "../../src/server/services/context";
import { recordScopeRefusal, SCOPE_REFUSAL_ACTION, SCOPE_REFUSAL_AUDIT_WINDOW_MS } from "../../src/server/services/audit/record-scope-refusal";

/**
 * Restricted keys (docs/team-and-security.md, "Restricted API keys"): made and shown; bad scopes refused per field;
 * never making, rolling or revoking keys. The per-route refusals are in the security suite (security.test.ts).
 */
let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  shop = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

const asUser = () => serviceContext(runtime, merchantUser(shop.merchant.id));
const makeKey = (body: unknown) => api.post("/merchant/api-key", { key: shop.apiKey, body });

describe("POST /merchant/api-key with scopes", () => {
  it("makes an rk_live_ key showing every resource's level (a resource left out is none), stored as a digest", async () => {
    const response = await makeKey({ mode: "live", name: "reports", scopes: { payments: "read", refunds: "write", invoices: "none" } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const { apiKey, secret } = response.body;
    expect(secret).toMatch(/^rk_live_[0-9A-Za-z]{49}$/);
    expect(Object.keys(apiKey.scopes)).toEqual([...RESTRICTED_KEY_RESOURCES]);
    expect(apiKey.scopes).toMatchObject({ payments: "read", refunds: "write", invoices: "none", webhooks: "none" });
    expect(apiKey.mode).toBe("live");
    const [row] = await runtime.database.db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    // Stored without `none`.
    expect(row!.scopes).toEqual({ payments: "read", refunds: "write" });
    expect(await dumpAllTables(runtime.database.db)).not.toContain(secret);
    // `write` implies `read`: it reads refunds, writes refunds, reads payments, and nothing else.
    expect((await api.get("/refund", { key: secret })).status).toBe(200);
    expect((await api.get("/payment", { key: secret })).status).toBe(200);
    const refused = await api.post("/payment/confirm", { key: secret, body: { externalId: externalId("rk"), amount: "1.00", currency: "USD" } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "insufficient_scope", permission: "payments.write" });
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
  });

  it("makes an rk_test_ key that sees test data only, like an sk_test_ key", async () => {
    const response = await makeKey({ mode: "test", scopes: { payments: "write" } });
    expect(response.status).toBe(201);
    expect(response.body.secret).toMatch(/^rk_test_/);
    const confirmed = await api.post("/payment/confirm", {
      key: response.body.secret,
      body: { externalId: externalId("rk-test"), amount: "2.00", currency: "EUR" },
    });
    expect(confirmed.status).toBe(201);
    expect(confirmed.body.livemode ?? false).toBe(false);
    expect((await api.get(`/payment/${confirmed.body.id}`, { key: shop.apiKey })).status).toBe(404);
    expect((await api.get(`/payment/${confirmed.body.id}`, { key: response.body.secret })).status).toBe(200);
  });

  it("keeps sk_ keys' full access and makes one without scopes, whose scopes are null", async () => {
    const response = await makeKey({ mode: "live" });
    expect(response.body.secret).toMatch(/^sk_live_/);
    expect(response.body.apiKey.scopes).toBeNull();
  });

  it.each([
    ["an unknown resource", { payments: "read", api_keys: "write" }, "body.scopes.api_keys"],
    ["an unknown level", { payments: "admin" }, "body.scopes.payments"],
    ["a level that is no string", { refunds: true }, "body.scopes.refunds"],
    ["scopes that are no object", "payments:read", "body.scopes"],
  ])("refuses %s: 400 validation_failed naming the field, no key made", async (_name, scopes, path) => {
    const before = await snapshotTables(runtime.database.db);
    const response = await makeKey({ mode: "live", scopes });
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(response.body.code).toBe("validation_failed");
    expect(response.body.errors.map((error: { path: string }) => error.path)).toContain(path);
    expect(await snapshotTables(runtime.database.db)).toEqual(before);
  });

  it("names the unknown resource in the field error", async () => {
    const response = await makeKey({ scopes: { api_keys: "write" } });
    expect(JSON.stringify(response.body.errors)).toContain("api_keys");
  });
});

describe("a restricted key and keys", () => {
  it("cannot create a key, even with write on every resource: 403 insufficient_scope (api_keys.write), nothing made", async () => {
    const everything = Object.fromEntries(RESTRICTED_KEY_RESOURCES.map((resource) => [resource, "write"]));
    const { key } = await createApiKey({ ctx: asUser(), input: { scopes: everything } });
    const before = await snapshotTables(runtime.database.db);
    for (const body of [{ mode: "live" }, { mode: "test", scopes: { payments: "read" } }]) {
      const response = await api.post("/merchant/api-key", { key, body });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: "insufficient_scope", permission: "api_keys.write" });
    }
    expect(await snapshotTables(runtime.database.db)).toEqual(before);
  });

  it("cannot create, roll or revoke through the verbs either", async () => {
    const { apiKey, key } = await createApiKey({ ctx: asUser(), input: { scopes: { payments: "write" } } });
    const victim = await createApiKey({ ctx: asUser(), input: { name: "victim" } });
    const restricted = serviceContext(runtime, {
      type: "api_key",
      merchantId: shop.merchant.id,
      keyId: apiKey.id,
      livemode: true,
      restrictedTo: new Set(["payments.read", "payments.write"]),
    });
    const refusal = { code: "insufficient_scope", options: { members: { permission: "api_keys.write" } } };
    await expect(createApiKey({ ctx: restricted, input: {} })).rejects.toMatchObject(refusal);
    await expect(rollApiKey({ ctx: restricted, input: { id: victim.apiKey.id } })).rejects.toMatchObject(refusal);
    await expect(revokeApiKey({ ctx: restricted, input: { id: victim.apiKey.id } })).rejects.toMatchObject(refusal);
    expect((await api.get("/payment", { key })).status).toBe(200);
  });

  it("rolls into an rk_ key of the same scopes (the dashboard's roll)", async () => {
    const made = await createApiKey({ ctx: asUser(), input: { mode: "test", scopes: { events: "read" } } });
    const rolled = await rollApiKey({ ctx: asUser(), input: { id: made.apiKey.id, overlapSeconds: 0 } });
    expect(rolled.key).toMatch(/^rk_test_/);
    expect(rolled.apiKey.scopes).toEqual(made.apiKey.scopes);
    expect((await api.get("/event", { key: rolled.key })).status).toBe(200);
    expect((await api.get("/payment", { key: rolled.key })).body.code).toBe("insufficient_scope");
  });
});

describe("a restricted key and the profile's webhook settings", () => {
  it("edits the profile with merchant_profile write, but moves the webhooks only with webhooks write as well (403 naming it, nothing changed)", async () => {
    const profileOnly = (await makeKey({ mode: "live", scopes: { merchant_profile: "write" } })).body.secret as string;
    const both = (await makeKey({ mode: "live", scopes: { merchant_profile: "write", webhooks: "write" } })).body.secret as string;
    const path = `/merchant/${shop.merchant.id}`;
    const before = (await api.get(path, { key: shop.apiKey })).body;

    const renamed = await api.put(path, { key: profileOnly, body: { name: "Renamed by a profile key" } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    for (const body of [{ webhookUrl: "https://elsewhere.example/hooks" }, { webhookEvents: [] }, { name: "Both", webhookUrl: null }]) {
      const refused = await api.put(path, { key: profileOnly, body });
      expect(refused.status, JSON.stringify(body)).toBe(403);
      expect(refused.body).toMatchObject({ code: "insufficient_scope", permission: "webhooks.write" });
    }
    const after = (await api.get(path, { key: shop.apiKey })).body;
    expect(after).toMatchObject({ name: "Renamed by a profile key", webhookUrl: before.webhookUrl, webhookEvents: before.webhookEvents });

    const moved = await api.put(path, { key: both, body: { webhookEvents: ["payment.confirmed"] } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.webhookEvents).toEqual(["payment.confirmed"]);
    await api.put(path, { key: shop.apiKey, body: { name: before.name, webhookEvents: before.webhookEvents } });
  });
});

describe("the dashboard's keys", () => {
  it("creates a restricted key through the existing create procedure and lists it with its scopes", async () => {
    const trpc = dashboardAs(runtime, merchantSession(shop));
    const made = await trpc.apiKeys.create(submitted({ mode: "live", name: "dashboard rk", scopes: { reconciliation: "write" } }));
    expect(made.key).toMatch(/^rk_live_/);
    const listed = await listApiKeys({ ctx: asUser(), input: { limit: 100 } });
    const row = listed.data.find((key) => key.id === made.apiKey.id)!;
    expect(row.scopes).toMatchObject({ reconciliation: "write", payments: "none" });
    await expect(trpc.apiKeys.create(submitted({ mode: "live", scopes: { payments: "owner" } } as never))).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });
});

describe("a restricted key's refusals in the audit log", () => {
  const refusalsOf = async (keyId: string) =>
    rowsOf<Record<string, unknown>>(
      await runtime.database.db.execute(
        sql`select actor_type, actor_id, merchant_id, target_type, target_id, details from audit_log where action = ${SCOPE_REFUSAL_ACTION} and actor_id = ${keyId} order by seq`,
      ),
    );

  it("records the refusal in the merchant's log (the key, the permission, the route), and changes nothing else", async () => {
    const { apiKey, key } = await createApiKey({ ctx: asUser(), input: { name: "reader", scopes: { payments: "read" } } });
    const before = await snapshotTables(runtime.database.db);
    const refused = await api.post("/payment/confirm", { key, body: { externalId: externalId("rk-audit"), amount: "1.00", currency: "EUR" } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "insufficient_scope", permission: "payments.write" });
    expect(await refusalsOf(apiKey.id)).toEqual([
      {
        actor_type: "api_key",
        actor_id: apiKey.id,
        merchant_id: shop.merchant.id,
        target_type: "permission",
        target_id: "payments.write",
        details: { method: "POST", route: "/payment/confirm", livemode: true },
      },
    ]);
    // Nothing else: the snapshot leaves out only the refusal's own row and the chain head it moved.
    expect(await snapshotTables(runtime.database.db)).toEqual(before);
    // The row is a link of the merchant's chain like any other, and the dashboard's audit log lists it.
    const [chain] = await verifyAuditChains(runtime.database.db, { merchantId: shop.merchant.id });
    expect(chain!.firstBreak).toBeNull();
    const listed = await api.get(`/audit-log?action=${SCOPE_REFUSAL_ACTION}`, { key: shop.apiKey });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data).toContainEqual(expect.objectContaining({ action: SCOPE_REFUSAL_ACTION, actorId: apiKey.id, targetId: "payments.write" }));
  });

  it("writes one row per key and permission in 15 minutes, however often the key is refused", async () => {
    const { apiKey, key } = await createApiKey({ ctx: asUser(), input: { name: "looping", mode: "test", scopes: { events: "read" } } });
    const confirm = () => api.post("/payment/confirm", { key, body: { externalId: externalId("rk-loop"), amount: "1.00", currency: "EUR" } });
    // A burst, at once and one after another: every one refused, one row.
    const burst = await Promise.all(Array.from({ length: 8 }, confirm));
    for (const response of [...burst, await confirm(), await confirm()]) expect(response.status).toBe(403);
    expect((await refusalsOf(apiKey.id)).map((row) => row.target_id)).toEqual(["payments.write"]);
    // Another permission is another row; its mode is recorded.
    expect((await api.get("/invoice", { key })).status).toBe(403);
    const rows = await refusalsOf(apiKey.id);
    expect(rows.map((row) => row.target_id)).toEqual(["payments.write", "invoices.read"]);
    expect(rows[1]!.details).toEqual({ method: "GET", route: "/invoice", livemode: false });
    // Other processes (no memory of these refusals) ask the database, which holds them to the same one row, even at once.
    const actor = { type: "api_key" as const, merchantId: shop.merchant.id, keyId: apiKey.id, livemode: false, restrictedTo: new Set(["events.read"]) };
    const elsewhere = await Promise.all(
      Array.from({ length: 4 }, () => recordScopeRefusal({ ctx: serviceContext(runtime, actor), input: { permission: "payments.write", method: "POST", route: "/payment/confirm" } })),
    );
    expect(elsewhere).toEqual(["recent", "recent", "recent", "recent"]);
    expect(await refusalsOf(apiKey.id)).toHaveLength(2);
    // After the window, the next refusal is written again.
    runtime.advanceTime(SCOPE_REFUSAL_AUDIT_WINDOW_MS + 1000);
    expect((await confirm()).status).toBe(403);
    expect((await refusalsOf(apiKey.id)).map((row) => row.target_id)).toEqual(["payments.write", "invoices.read", "payments.write"]);
  });

  it("refuses even when the audit row cannot be written (logged), and tries again at the next refusal", async () => {
    const { apiKey } = await createApiKey({ ctx: asUser(), input: { name: "unlucky", scopes: { payments: "read" } } });
    const route = routes.find((candidate) => candidate.path === "/payment/confirm" && candidate.method === "POST")!;
    const actor = { type: "api_key" as const, merchantId: shop.merchant.id, keyId: apiKey.id, livemode: true, restrictedTo: new Set(["payments.read"]) };
    const down = { transaction: () => Promise.reject(new Error("database down")) };
    const broken = inTransaction(serviceContext(runtime, actor), down as never);
    // inTransaction marks it a transaction only by `rollback`, which `down` lacks: the write goes through `transaction`.
    await expect(refuseOutsideScope(runtime, broken, route, "POST")).rejects.toMatchObject({ code: "insufficient_scope", options: { members: { permission: "payments.write" } } });
    expect(runtime.logs.join("")).toContain("could not audit a refusal");
    expect(await refusalsOf(apiKey.id)).toEqual([]);
    // Not remembered as audited: the next refusal (the database back) writes its row.
    await expect(refuseOutsideScope(runtime, serviceContext(runtime, actor), route, "POST")).rejects.toMatchObject({ code: "insufficient_scope" });
    expect((await refusalsOf(apiKey.id)).map((row) => row.target_id)).toEqual(["payments.write"]);
  });
});
