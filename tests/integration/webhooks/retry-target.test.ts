import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { emitEvent } from "../../../src/server/services/events/emit";
import { deliveryDepsFor } from "../../../src/server/background/start";
import { deliverDueNow } from "../../support/deliver-due-now";
import { testClient, type TestClient } from "../../support/client";
import { dashboardAs, merchantSession, STAFF_SESSION, submitted } from "../../support/dashboard";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { merchantContext } from "./context";
import { startReceiver, type TestReceiver } from "./receiver";

/** Where retries go: the configured URL for events (none configured → 409), the tested URL for test sends. */

let runtime: TestRuntime;
let api: TestClient;
let receiver: TestReceiver;

const deliverAll = () => deliverDueNow(deliveryDepsFor(runtime, { schedule: [0] }));
const failing = () => {
  receiver.respond = (_request, response) => response.writeHead(500).end("down");
};
const setWebhookUrl = async (merchant: TestMerchant, webhookUrl: string | null) =>
  expect((await api.put(`/merchant/${merchant.merchant.id}`, { key: merchant.apiKey, body: { webhookUrl } })).status).toBe(200);
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
  receiver.respond = (_request, response) => response.writeHead(200).end("ok");
});

/** One delivery that failed at the endpoint, and one that was still queued when the URL was removed. */
async function failedThenUrlRemoved(merchant: TestMerchant) {
  const ctx = merchantContext(runtime, merchant.merchant.id);
  failing();
  const { deliveryId: failedAtEndpoint } = await emitEvent({ ctx, input: { type: "payment.confirmed", data: {} } });
  await deliverAll();
  const { deliveryId: queued } = await emitEvent({ ctx, input: { type: "payment.failed", data: {} } });
  await setWebhookUrl(merchant, null);
  receiver.respond = (_request, response) => response.writeHead(200).end("ok");
  return [failedAtEndpoint!, queued!];
}

describe("retrying with no webhook URL configured", () => {
  it("answers 409 webhook_url_missing for one delivery and for the bulk retry (dry run too); nothing changes or is sent", async () => {
    const merchant = await registerTestMerchant(api, { webhookUrl: receiver.url("/removed") });
    const ids = await failedThenUrlRemoved(merchant);
    const before = await Promise.all(ids.map(async (id) => (await api.get(`/webhook/${id}`, { key: merchant.apiKey })).body));
    expect(before.map((delivery) => delivery.status)).toEqual(["failed", "failed"]);
    const sent = receivedAt("/removed").length;

    for (const id of ids) {
      const response = await api.post(`/webhook/${id}/retry`, { key: merchant.apiKey });
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: "webhook_url_missing", detail: expect.stringContaining("webhook URL") });
    }
    for (const dryRun of [true, false]) {
      const response = await api.post("/webhook/failed/retry", { key: merchant.apiKey, body: { dryRun } });
      expect(response.status).toBe(409);
      expect(response.body.code).toBe("webhook_url_missing");
    }

    await deliverAll();
    const after = await Promise.all(ids.map(async (id) => (await api.get(`/webhook/${id}`, { key: merchant.apiKey })).body));
    expect(after).toEqual(before);
    expect(receivedAt("/removed")).toHaveLength(sent);

    // Once a URL is set again, the same retries go there.
    await setWebhookUrl(merchant, receiver.url("/restored"));
    expect((await api.post(`/webhook/${ids[0]}/retry`, { key: merchant.apiKey })).body).toMatchObject({ url: receiver.url("/restored") });
    expect((await api.post("/webhook/failed/retry", { key: merchant.apiKey, body: { dryRun: true } })).body).toEqual({ count: 1 });
    expect((await api.post("/webhook/failed/retry", { key: merchant.apiKey, body: {} })).body).toEqual({ count: 1 });
    await deliverAll();
    expect(receivedAt("/restored")).toHaveLength(2);
    expect(receivedAt("/removed")).toHaveLength(sent);
  });

  it("gives the dashboard the same answer: merchant retry, retry all and staff retry", async () => {
    const merchant = await registerTestMerchant(api, { webhookUrl: receiver.url("/dashboard") });
    const [id] = await failedThenUrlRemoved(merchant);
    const asMerchant = dashboardAs(runtime, merchantSession(merchant));
    const asStaff = dashboardAs(runtime, STAFF_SESSION);
    const refused = { code: "CONFLICT", cause: { code: "webhook_url_missing" } };

    await expect(asMerchant.webhooks.retry({ id: id! })).rejects.toMatchObject(refused);
    await expect(asMerchant.webhooks.retryFailed({ dryRun: true })).rejects.toMatchObject(refused);
    await expect(asMerchant.webhooks.retryFailed({})).rejects.toMatchObject(refused);
    await expect(asStaff.webhooks.staffRetry(submitted({ merchantId: merchant.merchant.id, id: id! }))).rejects.toMatchObject(refused);
    expect((await api.get(`/webhook/${id}`, { key: merchant.apiKey })).body.status).toBe("failed");
  });
});

describe("retrying a test send", () => {
  /** A `POST /webhook/test` to `path` that the endpoint fails; returns the delivery id. */
  async function failedTestSend(merchant: TestMerchant, path: string) {
    failing();
    const response = await api.post("/webhook/test", { key: merchant.apiKey, body: { url: receiver.url(path) } });
    expect(response.body).toMatchObject({ delivered: false, statusCode: 500 });
    receiver.respond = (_request, response) => response.writeHead(200).end("ok");
    return response.body.deliveryId as string;
  }

  it("sends it again to the URL it tested, not the configured one, even if the URL changes or is removed", async () => {
    const merchant = await registerTestMerchant(api, { webhookUrl: receiver.url("/configured") });
    const id = await failedTestSend(merchant, "/tested");

    const retried = await api.post(`/webhook/${id}/retry`, { key: merchant.apiKey });
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ url: receiver.url("/tested"), eventType: "webhook.test", status: "pending" });
    await setWebhookUrl(merchant, receiver.url("/moved"));
    await deliverAll();

    expect(receivedAt("/tested")).toHaveLength(2);
    expect(receivedAt("/configured").length + receivedAt("/moved").length).toBe(0);
    const detail = await api.get(`/webhook/${id}`, { key: merchant.apiKey });
    expect(detail.body).toMatchObject({ status: "delivered", url: receiver.url("/tested") });
    expect(detail.body.attempts.map((attempt: { trigger: string }) => attempt.trigger)).toEqual(["test", "manual"]);

    // With no URL configured at all, a test send still has its own to go back to.
    await setWebhookUrl(merchant, null);
    const again = await failedTestSend(merchant, "/tested");
    expect((await api.post(`/webhook/${again}/retry`, { key: merchant.apiKey })).status).toBe(202);
    await deliverAll();
    expect(receivedAt("/tested")).toHaveLength(4);
  });

  it("in a bulk retry, keeps each test send's URL while the events go to the configured one", async () => {
    const merchant = await registerTestMerchant(api, { webhookUrl: receiver.url("/bulk-old") });
    const testId = await failedTestSend(merchant, "/bulk-tested");
    failing();
    const { deliveryId: eventId } = await emitEvent({
      ctx: merchantContext(runtime, merchant.merchant.id),
      input: { type: "payment.confirmed", data: {} },
    });
    await deliverAll();
    receiver.respond = (_request, response) => response.writeHead(200).end("ok");
    await setWebhookUrl(merchant, receiver.url("/bulk-new"));

    expect((await api.post("/webhook/failed/retry", { key: merchant.apiKey, body: {} })).body).toEqual({ count: 2 });
    await deliverAll();
    expect((await api.get(`/webhook/${testId}`, { key: merchant.apiKey })).body).toMatchObject({ status: "delivered", url: receiver.url("/bulk-tested") });
    expect((await api.get(`/webhook/${eventId}`, { key: merchant.apiKey })).body).toMatchObject({ status: "delivered", url: receiver.url("/bulk-new") });
    expect(receivedAt("/bulk-new")).toHaveLength(1);
  });
});
