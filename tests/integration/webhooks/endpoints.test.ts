import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deliveryDepsFor } from "../../../src/server/background/start";
import { testClient, type TestClient } from "../../support/client";
import { deliverDueNow } from "../../support/deliver-due-now";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { startReceiver, type TestReceiver } from "./receiver";

let runtime: TestRuntime;
let api: TestClient;
let receiver: TestReceiver;
let shop: TestMerchant;
let other: TestMerchant;

const deliverAll = () => deliverDueNow(deliveryDepsFor(runtime, { schedule: [0, 1_000] }));
const confirm = (merchant: TestMerchant, externalId: string, status = "confirmed") =>
  api.post("/payment/confirm", { key: merchant.apiKey, body: { externalId, amount: "19.99", currency: "EUR", status } });
const receivedAt = (path: string) => receiver.received.filter((request) => request.path === path);

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  receiver = await startReceiver();
  shop = await registerTestMerchant(api);
  other = await registerTestMerchant(api);
});
afterAll(async () => {
  await receiver.close();
  await runtime.close();
});
beforeEach(() => {
  receiver.respond = (_request, response) => response.writeHead(200).end("ok");
});

describe("round-1 clients see no change (the default endpoint)", () => {
  it("register → set webhookUrl → payment → a webhook signed with the registration secret → failed → retry", async () => {
    const registered = await api.post("/merchant/register", {
      body: { name: "Round One", email: `round-one-${Date.now()}@example.com`, password: "correct horse battery staple" },
    });
    expect(registered.status).toBe(201);
    const { merchant, apiKey, webhookSecret } = registered.body;
    expect(webhookSecret).toMatch(/^whsec_/);
    const put = await api.put(`/merchant/${merchant.id}`, { key: apiKey, body: { webhookUrl: receiver.url("/round-one") } });
    expect(put.status).toBe(200);
    expect(put.body.webhookUrl).toBe(receiver.url("/round-one"));

    receiver.respond = (_request, response) => response.writeHead(500).end("down");
    const paid = await api.post("/payment/confirm", { key: apiKey, body: { externalId: "r1-1", amount: "5.00", currency: "EUR" } });
    expect(paid.status).toBe(201);
    await deliverAll();
    runtime.advanceTime(2_000);
    await deliverAll();
    const [first] = receivedAt("/round-one");
    // Signed with the secret registration returned, verifiable with the official library.
    const event = new Webhook(webhookSecret).verify(first!.body, first!.headers) as { type: string; data: { id: string } };
    expect(event).toMatchObject({ type: "payment.confirmed", data: { id: paid.body.id } });

    const failed = await api.get("/webhook/failed", { key: apiKey });
    expect(failed.body.data).toHaveLength(1);
    const deliveryId = failed.body.data[0].id;
    receiver.respond = (_request, response) => response.writeHead(200).end("ok");
    const retried = await api.post(`/webhook/${deliveryId}/retry`, { key: apiKey });
    expect(retried.status).toBe(202);
    await deliverAll();
    const detail = await api.get(`/webhook/${deliveryId}`, { key: apiKey });
    expect(detail.body).toMatchObject({ status: "delivered", url: receiver.url("/round-one") });
    expect(receivedAt("/round-one").at(-1)!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);

    // Verify accepts what was sent.
    const verify = await api.post("/webhook/verify", { key: apiKey, body: { payload: first!.body, headers: first!.headers } });
    expect(verify.body).toMatchObject({ valid: true, reason: null });

    // The profile's webhook settings are the default endpoint.
    const endpoints = await api.get("/webhook/endpoint", { key: apiKey });
    expect(endpoints.body.data).toEqual([
      expect.objectContaining({ isDefault: true, url: receiver.url("/round-one"), status: "enabled", disabledReason: null }),
    ]);
    // Removing the URL in the profile removes it from the default endpoint.
    await api.put(`/merchant/${merchant.id}`, { key: apiKey, body: { webhookUrl: null } });
    expect((await api.get("/webhook/endpoint", { key: apiKey })).body.data[0].url).toBeNull();
  });
});

describe("many endpoints", () => {
  it("creates an endpoint with its own secret, shown once, and lists, reads, changes and deletes it", async () => {
    const created = await api.post("/webhook/endpoint", {
      key: shop.apiKey,
      body: { url: receiver.url("/crud"), description: "Fulfilment", eventTypes: ["invoice.paid"] },
    });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    expect(created.body.endpoint).toMatchObject({ url: receiver.url("/crud"), description: "Fulfilment", eventTypes: ["invoice.paid"], status: "enabled", isDefault: false });
    const id = created.body.endpoint.id as string;
    expect(id).toMatch(/^we_/);
    expect(JSON.stringify((await api.get(`/webhook/endpoint/${id}`, { key: shop.apiKey })).body)).not.toContain(created.body.secret);

    const updated = await api.put(`/webhook/endpoint/${id}`, { key: shop.apiKey, body: { description: null, eventTypes: null, enabled: false } });
    expect(updated.body).toMatchObject({ description: null, eventTypes: null, status: "disabled", disabledReason: "manual" });
    const listed = await api.get("/webhook/endpoint", { key: shop.apiKey });
    expect(listed.body.data.map((endpoint: { id: string }) => endpoint.id)).toContain(id);
    expect(listed.body.data[0].isDefault).toBe(true);

    const rotated = await api.post(`/webhook/endpoint/${id}/rotate-secret`, { key: shop.apiKey });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(created.body.secret);

    expect((await api.delete(`/webhook/endpoint/${id}`, { key: shop.apiKey })).status).toBe(204);
    expect((await api.get(`/webhook/endpoint/${id}`, { key: shop.apiKey })).status).toBe(404);
  });

  it("sends each event once to every enabled endpoint that subscribes to it, each signed with its own secret", async () => {
    const merchant = await registerTestMerchant(api, { webhookUrl: receiver.url("/fan-default") });
    const all = await api.post("/webhook/endpoint", { key: merchant.apiKey, body: { url: receiver.url("/fan-all") } });
    const invoicesOnly = await api.post("/webhook/endpoint", { key: merchant.apiKey, body: { url: receiver.url("/fan-invoices"), eventTypes: ["invoice.created"] } });
    const off = await api.post("/webhook/endpoint", { key: merchant.apiKey, body: { url: receiver.url("/fan-off"), enabled: false } });
    expect([all.status, invoicesOnly.status, off.status]).toEqual([201, 201, 201]);
    expect(off.body.endpoint).toMatchObject({ status: "disabled", disabledReason: "manual" });

    const paid = await confirm(merchant, "fan-1");
    await deliverAll();
    const [toDefault] = receivedAt("/fan-default");
    const [toAll] = receivedAt("/fan-all");
    expect(receivedAt("/fan-default")).toHaveLength(1);
    expect(receivedAt("/fan-all")).toHaveLength(1);
    expect(receivedAt("/fan-invoices")).toHaveLength(0);
    expect(receivedAt("/fan-off")).toHaveLength(0);
    expect(toDefault!.headers["webhook-id"]).toBe(toAll!.headers["webhook-id"]);
    expect(new Webhook(merchant.webhookSecret).verify(toDefault!.body, toDefault!.headers)).toMatchObject({ data: { id: paid.body.id } });
    expect(new Webhook(all.body.secret).verify(toAll!.body, toAll!.headers)).toMatchObject({ data: { id: paid.body.id } });
    expect(() => new Webhook(merchant.webhookSecret).verify(toAll!.body, toAll!.headers)).toThrow();

    const failed = await api.get("/webhook/failed", { key: merchant.apiKey });
    expect(failed.body.data).toEqual([]);
  });

  it("refuses bad input with the failing fields, and unusable URLs, writing nothing", async () => {
    const before = (await api.get("/webhook/endpoint", { key: other.apiKey })).body.data.length;
    const bad = await api.post("/webhook/endpoint", { key: other.apiKey, body: { url: "", eventTypes: ["nope"], extra: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("validation_failed");
    expect(bad.body.errors.map((error: { path: string }) => error.path).sort()).toEqual(expect.arrayContaining(["body.url"]));
    const ftp = await api.post("/webhook/endpoint", { key: other.apiKey, body: { url: "ftp://example.com/x" } });
    expect(ftp.status).toBe(422);
    expect(ftp.body.code).toBe("webhook_url_rejected");
    const empty = await api.post("/webhook/endpoint", { key: other.apiKey, body: { url: receiver.url("/x"), eventTypes: [] } });
    expect(empty.status).toBe(400);
    expect((await api.get("/webhook/endpoint", { key: other.apiKey })).body.data.length).toBe(before);
  });

  it("another merchant's endpoint is a 404 on every verb", async () => {
    const created = await api.post("/webhook/endpoint", { key: shop.apiKey, body: { url: receiver.url("/mine") } });
    const id = created.body.endpoint.id;
    expect((await api.get(`/webhook/endpoint/${id}`, { key: other.apiKey })).status).toBe(404);
    expect((await api.put(`/webhook/endpoint/${id}`, { key: other.apiKey, body: { enabled: false } })).status).toBe(404);
    expect((await api.delete(`/webhook/endpoint/${id}`, { key: other.apiKey })).status).toBe(404);
    expect((await api.post(`/webhook/endpoint/${id}/rotate-secret`, { key: other.apiKey })).status).toBe(404);
    expect((await api.get(`/webhook/endpoint/${id}`, { key: shop.apiKey })).body.status).toBe("enabled");
  });

  it("the default endpoint cannot be deleted; at most 16 endpoints, also under concurrent requests", async () => {
    const merchant = await registerTestMerchant(api);
    const defaultId = (await api.get("/webhook/endpoint", { key: merchant.apiKey })).body.data[0].id;
    const refused = await api.delete(`/webhook/endpoint/${defaultId}`, { key: merchant.apiKey });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("default_endpoint");
    const results = await Promise.all(
      Array.from({ length: 18 }, (_, n) => api.post("/webhook/endpoint", { key: merchant.apiKey, body: { url: receiver.url(`/many-${n}`) } })),
    );
    expect(results.filter((result) => result.status === 201)).toHaveLength(15);
    expect(results.filter((result) => result.status === 409).map((result) => result.body.code)).toEqual(["too_many_endpoints", "too_many_endpoints", "too_many_endpoints"]);
    expect((await api.get("/webhook/endpoint", { key: merchant.apiKey })).body.data).toHaveLength(16);
  });

  it("changing an endpoint's URL moves its queued deliveries; re-enabling sends what waited", async () => {
    const merchant = await registerTestMerchant(api);
    const created = await api.post("/webhook/endpoint", { key: merchant.apiKey, body: { url: receiver.url("/old") } });
    const id = created.body.endpoint.id;
    await api.put(`/webhook/endpoint/${id}`, { key: merchant.apiKey, body: { enabled: false } });
    await confirm(merchant, "queued-while-off-0");
    // Disabled: no delivery is made for it at all.
    await deliverAll();
    expect(receivedAt("/old")).toHaveLength(0);
    await api.put(`/webhook/endpoint/${id}`, { key: merchant.apiKey, body: { enabled: true } });
    receiver.respond = (_request, response) => response.writeHead(500).end("down");
    await confirm(merchant, "queued-1");
    await deliverAll();
    expect(receivedAt("/old")).toHaveLength(1);
    // Waiting for its retry: disabling defers it, moving the URL moves it, enabling sends it now.
    await api.put(`/webhook/endpoint/${id}`, { key: merchant.apiKey, body: { enabled: false, url: receiver.url("/new") } });
    receiver.respond = (_request, response) => response.writeHead(200).end("ok");
    runtime.advanceTime(5_000);
    await deliverAll();
    expect(receivedAt("/new")).toHaveLength(0);
    await api.put(`/webhook/endpoint/${id}`, { key: merchant.apiKey, body: { enabled: true } });
    await deliverAll();
    expect(receivedAt("/new")).toHaveLength(1);
  });
});
