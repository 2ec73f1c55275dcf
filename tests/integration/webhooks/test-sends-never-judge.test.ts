import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { webhookEndpointBreakers } from "../../../src/server/db/schema";
import { deliveryDepsFor } from "../../../src/server/background/start";
import { deliverDueNow } from "../../support/deliver-due-now";
import { testClient, type TestClient } from "../../support/client";
import { dashboardAs, merchantSession } from "../../support/dashboard";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { startReceiver, type TestReceiver } from "./receiver";

/*
 * A test send goes to a URL the merchant typed for the test, and its retries repeat that test (docs/webhooks.md,
 * "Testing your endpoint"): whatever that URL answers says nothing about the merchant's endpoint. So no test send,
 * and no retry of one — single, bulk, or the dashboard's Retry all — moves the endpoint's health (410 → disabled,
 * failing since), or its breaker; and the live events keep arriving.
 */

let runtime: TestRuntime;
let api: TestClient;
let receiver: TestReceiver;

/** A breaker that opens on the second failure in a row, so any counted test-send failure would show. */
const deliverAll = () => deliverDueNow({ ...deliveryDepsFor(runtime, { schedule: [0] }), breaker: { failureThreshold: 2, cooldownMs: 600_000 } });
const receivedAt = (path: string) => receiver.received.filter((request) => request.path === path);

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await runtime.close();
});
beforeEach(() => {
  // The tested URLs answer as their name says; the merchant's real endpoint answers 200.
  receiver.respond = (request, response) => {
    if (request.path.startsWith("/gone")) response.writeHead(410).end("gone");
    else if (request.path.startsWith("/down")) response.writeHead(503).end("down");
    else response.writeHead(200).end("ok");
  };
});

async function failedTestSend(merchant: TestMerchant, path: string): Promise<string> {
  const response = await api.post("/webhook/test", { key: merchant.apiKey, body: { url: receiver.url(path) } });
  expect(response.body).toMatchObject({ delivered: false });
  return response.body.deliveryId as string;
}

async function defaultEndpoint(merchant: TestMerchant) {
  const list = await api.get("/webhook/endpoint", { key: merchant.apiKey });
  return (list.body.data as { id: string; isDefault: boolean; status: string; disabledReason: string | null }[]).find((endpoint) => endpoint.isDefault)!;
}

/** A live event (an invoice created over REST) reaches the merchant's real URL. */
async function liveEventArrives(merchant: TestMerchant, path: string) {
  const before = receivedAt(path).length;
  const invoice = await api.post("/invoice", { key: merchant.apiKey, body: { amount: "5.00", currency: "EUR" } });
  expect(invoice.status).toBe(201);
  await deliverAll();
  const arrived = receivedAt(path).slice(before).map((request) => JSON.parse(request.body) as { type: string; data: { id: string } });
  expect(arrived).toContainEqual(expect.objectContaining({ type: "invoice.created", data: expect.objectContaining({ id: invoice.body.id }) }));
}

async function expectEndpointUntouched(merchant: TestMerchant) {
  const endpoint = await defaultEndpoint(merchant);
  expect(endpoint).toMatchObject({ status: "enabled", disabledReason: null });
  const health = await dashboardAs(runtime, merchantSession(merchant)).webhookEndpoints.health();
  expect(health.find((entry) => entry.endpointId === endpoint.id)?.failingSince ?? null).toBeNull();
  const breakers = await runtime.database.db.select().from(webhookEndpointBreakers).where(eq(webhookEndpointBreakers.endpointId, endpoint.id));
  expect(breakers.every((breaker) => breaker.consecutiveFailures === 0 && breaker.openUntil === null)).toBe(true);
}

describe("a failed test send and its retries never judge the merchant's endpoint", () => {
  it("a test send answered 410, retried one by one: the endpoint stays enabled and live events still arrive", async () => {
    const merchant = await registerTestMerchant(api, { webhookUrl: receiver.url("/live-single") });
    const id = await failedTestSend(merchant, "/gone-single");
    for (let retry = 0; retry < 3; retry++) {
      expect((await api.post(`/webhook/${id}/retry`, { key: merchant.apiKey })).status).toBe(202);
      await deliverAll();
    }
    expect(receivedAt("/gone-single")).toHaveLength(4);
    await expectEndpointUntouched(merchant);
    await liveEventArrives(merchant, "/live-single");
  });

  it("test sends answered 410 and 503, bulk-retried over REST: the endpoint is neither disabled nor broken", async () => {
    const merchant = await registerTestMerchant(api, { webhookUrl: receiver.url("/live-bulk") });
    await failedTestSend(merchant, "/gone-bulk");
    await failedTestSend(merchant, "/down-bulk");
    for (let retry = 0; retry < 3; retry++) {
      expect((await api.post("/webhook/failed/retry", { key: merchant.apiKey, body: {} })).body).toEqual({ count: 2 });
      await deliverAll();
    }
    await expectEndpointUntouched(merchant);
    await liveEventArrives(merchant, "/live-bulk");
  });

  it("a test send fails → the dashboard's Retry all → live events still arrive", async () => {
    const merchant = await registerTestMerchant(api, { webhookUrl: receiver.url("/live-dashboard") });
    const dashboard = dashboardAs(runtime, merchantSession(merchant));
    const sent = await dashboard.webhooks.sendTest({ url: receiver.url("/gone-dashboard"), dryRun: false });
    expect(sent).toMatchObject({ delivered: false, statusCode: 410 });
    for (let retry = 0; retry < 3; retry++) {
      expect(await dashboard.webhooks.retryFailed({})).toEqual({ count: 1, dryRun: false });
      await deliverAll();
    }
    await expectEndpointUntouched(merchant);
    await liveEventArrives(merchant, "/live-dashboard");
  });
});
