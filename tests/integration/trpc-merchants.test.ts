import { submitted } from "../support/dashboard";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, users } from "../../src/server/db/schema";
import type { SessionUser } from "../../src/server/services/users/session-user";
import { createCallerFactory, createTrpcContext } from "../../src/server/trpc/init";
import { appRouter } from "../../src/server/trpc/router";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;
let api: TestClient;
let alice: TestMerchant;
let bob: TestMerchant;
const createCaller = createCallerFactory(appRouter);

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  alice = await registerTestMerchant(api);
  bob = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

/** A caller signed in as the merchant's owner login, as the dashboard session would be. */
async function signedInAs(merchant: TestMerchant) {
  const [user] = await runtime.database.db.select().from(users).where(eq(users.merchantId, merchant.merchant.id));
  const session: SessionUser = { id: user!.id, email: user!.email, role: "merchant", merchantId: merchant.merchant.id, access: "member:owner" };
  return createCaller(createTrpcContext(runtime, session));
}

describe("tRPC merchants", () => {
  it("reads and updates the signed-in merchant's profile, audited as the user", async () => {
    const caller = await signedInAs(alice);
    expect((await caller.merchants.profile()).id).toBe(alice.merchant.id);
    const updated = await caller.merchants.update({ name: "Alice Dashboard", webhookEvents: ["payment.confirmed"] });
    expect(updated).toMatchObject({ name: "Alice Dashboard", webhookEvents: ["payment.confirmed"] });
    const entries = await runtime.database.db.select().from(auditLog).where(eq(auditLog.merchantId, alice.merchant.id));
    expect(entries.find((entry) => entry.action === "merchant.updated")).toMatchObject({ actorType: "user" });
  });

  it("refuses unknown fields and callers without a merchant session", async () => {
    const caller = await signedInAs(alice);
    await expect(caller.merchants.update({ name: "x", email: "x@example.com" } as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(createCaller(createTrpcContext(runtime, null)).merchants.profile()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("tRPC apiKeys", () => {
  it("creates, lists, rolls and revokes the signed-in merchant's keys", async () => {
    const caller = await signedInAs(alice);
    const created = await caller.apiKeys.create(submitted({ name: "dashboard" }));
    expect((await api.get(`/merchant/${alice.merchant.id}`, { key: created.key! })).status).toBe(200);
    const listed = await caller.apiKeys.list();
    expect(listed.data.map((key) => key.id)).toContain(created.apiKey.id);
    expect(JSON.stringify(listed)).not.toContain(created.key!);

    const rolled = await caller.apiKeys.roll(submitted({ id: created.apiKey.id, overlapSeconds: 0 }));
    expect((await api.get(`/merchant/${alice.merchant.id}`, { key: created.key! })).status).toBe(401);
    expect((await api.get(`/merchant/${alice.merchant.id}`, { key: rolled.key! })).status).toBe(200);

    await caller.apiKeys.revoke({ id: rolled.apiKey.id });
    expect((await api.get(`/merchant/${alice.merchant.id}`, { key: rolled.key! })).status).toBe(401);
  });

  it("never reaches another merchant's keys", async () => {
    const bobs = await (await signedInAs(bob)).apiKeys.list();
    const caller = await signedInAs(alice);
    const bobKeyId = bobs.data[0]!.id;
    await expect(caller.apiKeys.revoke({ id: bobKeyId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller.apiKeys.roll(submitted({ id: bobKeyId }))).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await caller.apiKeys.list({ limit: 100 })).data.map((key) => key.id)).not.toContain(bobKeyId);
    expect((await api.get(`/merchant/${bob.merchant.id}`, { key: bob.apiKey })).status).toBe(200);
  });

  it("refuses an overlap over 24 h", async () => {
    const caller = await signedInAs(alice);
    const { apiKey } = await caller.apiKeys.create(submitted({}));
    await expect(caller.apiKeys.roll(submitted({ id: apiKey.id, overlapSeconds: 90_000 }))).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
