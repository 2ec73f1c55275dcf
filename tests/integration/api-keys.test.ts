import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys, auditLog } from "../../src/server/db/schema";
import { VERIFIED_KEY_TTL_MS } from "../../src/server/services/api-keys/verified-key-cache";
import { createApiKey } from "../../src/server/services/api-keys/create";
import { listApiKeys } from "../../src/server/services/api-keys/list";
import { revokeApiKey } from "../../src/server/services/api-keys/revoke";
import { rollApiKey } from "../../src/server/services/api-keys/roll";
import { MAX_ACTIVE_API_KEYS } from "../../src/server/services/api-keys/schemas";
import { testClient, type TestClient } from "../support/client";
import { merchantUser, serviceContext } from "../support/context";
import { dumpAllTables } from "../support/dump";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;
let api: TestClient;
let alice: TestMerchant;
let bob: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  alice = await registerTestMerchant(api);
  bob = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

const asUser = (merchant: TestMerchant) => serviceContext(runtime, merchantUser(merchant.merchant.id));
const profileStatus = async (merchant: TestMerchant, key: string) =>
  (await api.get(`/merchant/${merchant.merchant.id}`, { key })).status;

async function auditActions(targetId: string) {
  const rows = await runtime.database.db.select().from(auditLog).where(eq(auditLog.targetId, targetId));
  return rows.map((row) => row.action);
}

describe("API key verbs", () => {
  it("creates a working key, shows it once, stores only its digest and audits it", async () => {
    const { apiKey, key } = await createApiKey({ ctx: asUser(alice), input: { name: "CI" } });
    expect(key).toMatch(/^sk_live_/);
    expect(apiKey).toMatchObject({ name: "CI", hint: "…" + key.slice(-4), status: "active", revokedAt: null });
    expect(apiKey).not.toHaveProperty("key");
    expect(await profileStatus(alice, key)).toBe(200);
    expect(await dumpAllTables(runtime.database.db)).not.toContain(key);
    expect(await auditActions(apiKey.id)).toEqual(["api_key.created"]);
  });

  it("lists only the merchant's own keys, newest first, page by page", async () => {
    const created = [];
    for (let i = 0; i < 3; i++) created.push((await createApiKey({ ctx: asUser(bob), input: { name: `k${i}` } })).apiKey.id);
    const first = await listApiKeys({ ctx: asUser(bob), input: { limit: 2 } });
    expect(first.hasMore).toBe(true);
    const second = await listApiKeys({ ctx: asUser(bob), input: { limit: 2, cursor: first.nextCursor! } });
    const ids = [...first.data, ...second.data].map((key) => key.id);
    expect(ids.slice(0, 3)).toEqual([...created].reverse());
    expect(second.hasMore).toBe(false);
    expect(second.nextCursor).toBeNull();
    const aliceIds = (await listApiKeys({ ctx: asUser(alice), input: { limit: 100 } })).data.map((key) => key.id);
    for (const id of ids) expect(aliceIds).not.toContain(id);
    // Nothing secret is listed: no digest, no key.
    expect(JSON.stringify(first)).not.toMatch(/sk_live_|digest/);
  });

  it("refuses a cursor it did not hand out with 400 invalid_cursor", async () => {
    await expect(listApiKeys({ ctx: asUser(alice), input: { cursor: "' or 1=1 --" } })).rejects.toMatchObject({
      code: "invalid_cursor",
    });
  });

  it("revokes a key at once, idempotently, and audits it once", async () => {
    const { apiKey, key } = await createApiKey({ ctx: asUser(alice), input: {} });
    expect(await profileStatus(alice, key)).toBe(200); // now cached as verified
    const revoked = await revokeApiKey({ ctx: asUser(alice), input: { id: apiKey.id } });
    expect(revoked.status).toBe("revoked");
    expect(await profileStatus(alice, key)).toBe(401);
    const again = await revokeApiKey({ ctx: asUser(alice), input: { id: apiKey.id } });
    expect(again.revokedAt).toEqual(revoked.revokedAt);
    expect(await auditActions(apiKey.id)).toEqual(["api_key.created", "api_key.revoked"]);
  });

  it("answers 404 for another merchant's key, and leaves that key alone", async () => {
    const { apiKey, key } = await createApiKey({ ctx: asUser(bob), input: {} });
    await expect(revokeApiKey({ ctx: asUser(alice), input: { id: apiKey.id } })).rejects.toMatchObject({ code: "not_found" });
    await expect(rollApiKey({ ctx: asUser(alice), input: { id: apiKey.id } })).rejects.toMatchObject({ code: "not_found" });
    expect(await profileStatus(bob, key)).toBe(200);
    const [row] = await runtime.database.db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(row).toMatchObject({ revokedAt: null, expiresAt: null });
  });

  it("rolls a key with an overlap: both work, then only the new one", async () => {
    const { apiKey: old, key: oldKey } = await createApiKey({ ctx: asUser(alice), input: { name: "server" } });
    const rolled = await rollApiKey({ ctx: asUser(alice), input: { id: old.id, overlapSeconds: 3600 } });
    expect(rolled.apiKey.name).toBe("server");
    expect(rolled.previous.status).toBe("expiring");
    expect(await profileStatus(alice, oldKey)).toBe(200);
    expect(await profileStatus(alice, rolled.key)).toBe(200);

    runtime.advanceTime(3600 * 1000 + 1000);
    expect(await profileStatus(alice, oldKey)).toBe(401);
    expect(await profileStatus(alice, rolled.key)).toBe(200);
    expect(await auditActions(old.id)).toEqual(["api_key.created", "api_key.rolled"]);
    const listed = (await listApiKeys({ ctx: asUser(alice), input: { limit: 100 } })).data;
    expect(listed.find((key) => key.id === old.id)?.status).toBe("expired");
  });

  it("rolls with no overlap: the old key stops at once, even though it was cached", async () => {
    const { apiKey: old, key: oldKey } = await createApiKey({ ctx: asUser(alice), input: {} });
    expect(await profileStatus(alice, oldKey)).toBe(200);
    const rolled = await rollApiKey({ ctx: asUser(alice), input: { id: old.id, overlapSeconds: 0 } });
    expect(await profileStatus(alice, oldKey)).toBe(401);
    expect(await profileStatus(alice, rolled.key)).toBe(200);
  });

  it("refuses to roll a rolled or revoked key (409) and an overlap over 24 h (400)", async () => {
    const { apiKey } = await createApiKey({ ctx: asUser(alice), input: {} });
    await expect(rollApiKey({ ctx: asUser(alice), input: { id: apiKey.id, overlapSeconds: 86_401 } })).rejects.toMatchObject({
      code: "validation_failed",
    });
    await rollApiKey({ ctx: asUser(alice), input: { id: apiKey.id } });
    await expect(rollApiKey({ ctx: asUser(alice), input: { id: apiKey.id } })).rejects.toMatchObject({ code: "api_key_inactive" });
    const other = await createApiKey({ ctx: asUser(alice), input: {} });
    await revokeApiKey({ ctx: asUser(alice), input: { id: other.apiKey.id } });
    await expect(rollApiKey({ ctx: asUser(alice), input: { id: other.apiKey.id } })).rejects.toMatchObject({ code: "api_key_inactive" });
  });

  it("lets only one of two concurrent rolls of a key win", async () => {
    const { apiKey } = await createApiKey({ ctx: asUser(bob), input: {} });
    const outcomes = await Promise.allSettled([
      rollApiKey({ ctx: asUser(bob), input: { id: apiKey.id } }),
      rollApiKey({ ctx: asUser(bob), input: { id: apiKey.id } }),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
    const rejected = outcomes.find((outcome) => outcome.status === "rejected") as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ code: "api_key_inactive" });
    expect(await auditActions(apiKey.id)).toEqual(["api_key.created", "api_key.rolled"]);
  });

  it("caps active keys per merchant; revoking one makes room", async () => {
    const carol = await registerTestMerchant(api);
    const ctx = asUser(carol);
    const made = [];
    for (let i = 1; i < MAX_ACTIVE_API_KEYS; i++) made.push(await createApiKey({ ctx, input: {} }));
    await expect(createApiKey({ ctx, input: {} })).rejects.toMatchObject({ code: "too_many_keys" });
    await revokeApiKey({ ctx, input: { id: made[0]!.apiKey.id } });
    await expect(createApiKey({ ctx, input: {} })).resolves.toHaveProperty("key");
  });

  it("lets support staff look but not change keys", async () => {
    const staff = serviceContext(runtime, { type: "staff", userId: "usr_staff", merchantId: alice.merchant.id });
    await expect(listApiKeys({ ctx: staff, input: {} })).resolves.toHaveProperty("data");
    await expect(createApiKey({ ctx: staff, input: {} })).rejects.toMatchObject({ code: "forbidden" });
  });
});

describe("authentication cache and lastUsedAt", () => {
  it("notices a revocation made by another process within the cache TTL", async () => {
    const { apiKey, key } = await createApiKey({ ctx: asUser(bob), input: {} });
    expect(await profileStatus(bob, key)).toBe(200);
    // Another process revokes it: this process's cache is not told.
    await runtime.database.db
      .update(apiKeys)
      .set({ revokedAt: runtime.now() })
      .where(and(eq(apiKeys.id, apiKey.id), eq(apiKeys.merchantId, bob.merchant.id)));
    runtime.advanceTime(VERIFIED_KEY_TTL_MS);
    expect(await profileStatus(bob, key)).toBe(401);
  });

  it("records lastUsedAt at most once a minute", async () => {
    const { apiKey, key } = await createApiKey({ ctx: asUser(bob), input: {} });
    const lastUsed = async () =>
      (await runtime.database.db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id)))[0]!.lastUsedAt;
    expect(await lastUsed()).toBeNull();

    await profileStatus(bob, key);
    const first = await lastUsed();
    expect(first).not.toBeNull();
    // Requests over the next 50 s (past the cache TTL, so the key is looked up again) leave it alone.
    for (let i = 0; i < 5; i++) {
      runtime.advanceTime(10_000);
      await profileStatus(bob, key);
    }
    expect(await lastUsed()).toEqual(first);

    runtime.advanceTime(11_000);
    await profileStatus(bob, key);
    expect((await lastUsed())!.getTime()).toBeGreaterThanOrEqual(first!.getTime() + 60_000);
  });
});
