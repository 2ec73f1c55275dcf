import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReceiver, HandledEvents, type WebhookEvent } from "../../../examples/webhook-receiver/receiver";
import { emitEvent } from "../../../src/server/services/events/emit";
import { deliveryDepsFor } from "../../../src/server/background/start";
import { deliverDueNow } from "../../support/deliver-due-now";
import { testClient, type TestClient } from "../../support/client";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { merchantContext } from "./context";

/**
 * The example receiver of docs/webhooks.md (examples/webhook-receiver) against real deliveries from the
 * engine: it must accept ours, handle each event once through retries and replays, and refuse forgeries.
 */

let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;
let server: Server;
let url: string;
let dir: string;
const handled: { id: string; event: WebhookEvent }[] = [];
let failNext = 0;
const captured: { headers: Record<string, string>; body: string }[] = [];

// Two attempts 500 ms apart: a retry without moving the clock (the example checks real time).
const deliver = () => deliverDueNow(deliveryDepsFor(runtime, { schedule: [0, 500] }));

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  dir = mkdtempSync(path.join(tmpdir(), "example-receiver-"));
  // Register first (the URL is set below), so the receiver can be built with the merchant's secret.
  shop = await registerTestMerchant(api);
  const receive = createReceiver({
    secret: shop.webhookSecret,
    store: new HandledEvents(path.join(dir, "handled.jsonl")),
    handle: (id, event) => {
      if (failNext > 0) {
        failNext--;
        throw new Error("database briefly unavailable");
      }
      handled.push({ id, event });
    },
  });
  server = createServer((request, response) => {
    // Keep a copy of what arrived, to replay and tamper with it below.
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
    request.on("end", () => captured.push({ headers, body: Buffer.concat(chunks).toString() }));
    void receive(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  const updated = await api.put(`/merchant/${shop.merchant.id}`, { key: shop.apiKey, body: { webhookUrl: url } });
  expect(updated.status).toBe(200);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await runtime.close();
  rmSync(dir, { recursive: true, force: true });
});

function send(headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: "POST", headers: { ...headers, "content-type": "application/json" } }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

const signedHeaders = (request: { headers: Record<string, string> }) => ({
  "webhook-id": request.headers["webhook-id"]!,
  "webhook-timestamp": request.headers["webhook-timestamp"]!,
  "webhook-signature": request.headers["webhook-signature"]!,
});

describe("the example receiver against real deliveries", () => {
  it("verifies and handles each event once", async () => {
    const ids: string[] = [];
    for (const amount of ["1.00", "2.50", "19.99"]) {
      const { event } = await emitEvent({
        ctx: merchantContext(runtime, shop.merchant.id),
        input: { type: "payment.confirmed", data: { amount, currency: "EUR" } },
      });
      ids.push(event.id);
    }
    await deliver();
    // Deliveries run concurrently: webhooks promise no order (docs/webhooks.md).
    expect(handled.map((entry) => entry.id).sort()).toEqual([...ids].sort());
    expect(handled.map(({ event }) => (event.type === "payment.confirmed" ? event.data.amount : event.type)).sort()).toEqual(["1.00", "19.99", "2.50"]);
    // Durable: the handled ids are on disk.
    const lines = readFileSync(path.join(dir, "handled.jsonl"), "utf8").trim().split("\n");
    expect(lines.map((line) => JSON.parse(line).id).sort()).toEqual([...ids].sort());
  });

  it("answers 500 when its handling fails, so the delivery is retried and then handled once", async () => {
    failNext = 1;
    const before = handled.length;
    const { event, deliveryId } = await emitEvent({
      ctx: merchantContext(runtime, shop.merchant.id),
      input: { type: "payment.failed", data: { reason: "declined" } },
    });
    await deliver();
    expect(handled.length).toBe(before);
    await new Promise((resolve) => setTimeout(resolve, 650));
    await deliver();
    expect(handled.slice(before).map((entry) => entry.id)).toEqual([event.id]);
    const detail = await api.get(`/webhook/${deliveryId}`, { key: shop.apiKey });
    expect(detail.body.attempts.map((attempt: { statusCode: number }) => attempt.statusCode)).toEqual([500, 200]);
  });

  it("acknowledges a replayed delivery without handling it again", async () => {
    const original = captured.find((request) => request.headers["webhook-id"] === handled[0]!.id)!;
    const before = handled.length;
    expect(await send(signedHeaders(original), original.body)).toBe(200);
    expect(handled.length).toBe(before);
  });

  it("refuses a changed body, a forged signature and a stale timestamp, handling none", async () => {
    const original = captured.findLast((request) => request.body.includes("declined"))!;
    const before = handled.length;
    const headers = signedHeaders(original);
    expect(await send(headers, original.body.replace("declined", "approved"))).toBe(401);
    expect(await send({ ...headers, "webhook-signature": "v1," + Buffer.alloc(32).toString("base64") }, original.body)).toBe(401);
    expect(await send({ ...headers, "webhook-timestamp": String(Math.floor(Date.now() / 1000) - 3600) }, original.body)).toBe(401);
    expect(handled.length).toBe(before);
  });

  it("accepts a test webhook sent from the API", async () => {
    const response = await api.post("/webhook/test", { key: shop.apiKey, body: {} });
    expect(response.body).toMatchObject({ delivered: true, statusCode: 200 });
    expect(handled.at(-1)!.event.type).toBe("webhook.test");
  });
});
