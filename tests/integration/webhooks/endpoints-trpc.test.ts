import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testClient, type TestClient } from "../../support/client";
import { dashboardAs, merchantSession, STAFF_SESSION, submitted } from "../../support/dashboard";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";

/** The dashboard's endpoint procedures act on the signed-in merchant's endpoints only. */

let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;
let other: TestMerchant;

const asMerchant = (merchant: TestMerchant) => dashboardAs(runtime, merchantSession(merchant));

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  shop = await registerTestMerchant(api);
  other = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

describe("webhookEndpoints tRPC router", () => {
  it("creates, lists, changes, recovers and deletes the merchant's own endpoints, with their health", async () => {
    const created = await asMerchant(shop).webhookEndpoints.create(submitted({ url: "https://hooks.example.com/trpc", description: "Dashboard" }));
    expect(created.secret).toMatch(/^whsec_/);
    const listed = await asMerchant(shop).webhookEndpoints.list();
    expect(listed.data.map((endpoint) => endpoint.id)).toContain(created.endpoint.id);
    const health = await asMerchant(shop).webhookEndpoints.health();
    expect(health.find((entry) => entry.endpointId === created.endpoint.id)).toMatchObject({ failingSince: null, last24h: { delivered: 0, failed: 0, pending: 0 } });
    expect(await asMerchant(shop).webhookEndpoints.update({ id: created.endpoint.id, enabled: false })).toMatchObject({ status: "disabled", disabledReason: "manual" });
    expect(await asMerchant(shop).webhookEndpoints.recover({ id: created.endpoint.id, since: "2026-01-01T00:00:00Z" })).toEqual({ count: 0 });
    const rotated = await asMerchant(shop).webhookEndpoints.rotateSecret(submitted({ id: created.endpoint.id }));
    expect(rotated.secret).not.toBe(created.secret);
    await asMerchant(shop).webhookEndpoints.remove({ id: created.endpoint.id });
    expect((await asMerchant(shop).webhookEndpoints.list()).data.map((endpoint) => endpoint.id)).not.toContain(created.endpoint.id);
  });

  it("another merchant's endpoint is NOT_FOUND on every procedure, and lists never show it", async () => {
    const { endpoint } = await asMerchant(shop).webhookEndpoints.create(submitted({ url: "https://hooks.example.com/mine" }));
    const theirs = asMerchant(other).webhookEndpoints;
    await expect(theirs.update({ id: endpoint.id, enabled: false })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(theirs.remove({ id: endpoint.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(theirs.rotateSecret(submitted({ id: endpoint.id }))).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(theirs.recover({ id: endpoint.id, since: "2026-01-01T00:00:00Z" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await theirs.list()).data.map((row) => row.id)).not.toContain(endpoint.id);
    expect((await theirs.health()).map((row) => row.endpointId)).not.toContain(endpoint.id);
    expect((await asMerchant(shop).webhookEndpoints.list()).data.find((row) => row.id === endpoint.id)).toMatchObject({ status: "enabled" });
  });

  it("refuses bad input and staff (who only read merchants)", async () => {
    await expect(asMerchant(shop).webhookEndpoints.create(submitted({ url: "" }))).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(dashboardAs(runtime, STAFF_SESSION).webhookEndpoints.list()).rejects.toMatchObject({ code: expect.stringMatching(/FORBIDDEN|UNAUTHORIZED/) });
  });
});
