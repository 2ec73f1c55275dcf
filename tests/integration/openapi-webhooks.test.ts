import { generateKeyPairSync } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events, eventTypes, type EventType } from "../../src/server/db/schema";
import {
  EXAMPLE_EVENT_BODY,
  EXAMPLE_IDS,
  EXAMPLE_JWK,
  EXAMPLE_SIGNATURE,
  EXAMPLE_UNIX_TIME,
  EXAMPLE_WEBHOOK_SECRET,
} from "../../src/server/openapi/examples";
import { eventBodySchema } from "../../src/server/openapi/webhooks";
import { createServiceContext } from "../../src/server/services/create-context";
import { expireDueInvoices } from "../../src/server/services/invoices/expire-due";
import { claimRefund } from "../../src/server/services/refunds/claim";
import { openApiDocument } from "../../src/server/http/routes";
import { webhookBody } from "../../src/server/webhooks/payload";
import { deliveryDepsFor } from "../../src/server/background/start";
import { deliverDueNow } from "../support/deliver-due-now";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;
let api: TestClient;
let merchant: TestMerchant;
let receiver: Server;
let receiverUrl: string;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  merchant = await registerTestMerchant(api);
  // `/gone` answers 410 Gone, which disables the endpoint (webhook.endpoint_disabled).
  receiver = createServer((request, response) => response.writeHead(request.url === "/gone" ? 410 : 204).end());
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  await runtime.close();
});

const confirm = (body: object) => api.post("/payment/confirm", { key: merchant.apiKey, body: { currency: "EUR", amount: "19.99", ...body } });
const createInvoice = async (body: object = {}) =>
  (await api.post("/invoice", { key: merchant.apiKey, body: { amount: "19.99", currency: "EUR", ...body } })).body as { id: string };
const refundOf = async (externalId: string, body: object = {}) => {
  const payment = await confirm({ externalId });
  return (await api.post("/refund", { key: merchant.apiKey, body: { paymentId: payment.body.id, ...body } })).body as { id: string; claimUrl: string };
};
const publish = (jwk: object) =>
  api.post("/merchant/keys/publish", { key: merchant.apiKey, body: { keys: [{ jwk, kid: "signing", use: "sig" }] } });

/** Causes every event type through the public API, as a merchant would. */
const producers: Record<EventType, () => Promise<unknown>> = {
  "payment.pending": () => confirm({ externalId: "tx-pending", status: "pending", metadata: { order: "1" } }),
  "payment.confirmed": async () => {
    await confirm({ externalId: "tx-later", status: "pending" });
    await confirm({ externalId: "tx-later", status: "confirmed" });
  },
  "payment.failed": () => confirm({ externalId: "tx-failed", status: "failed", reference: "order-9" }),
  "keys.published": async () => {
    await publish({ ...EXAMPLE_JWK });
    // Another key under the same kid retires the first: this event fills `retired` too.
    await publish(generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" }));
  },
  "webhook.test": () => api.post("/webhook/test", { key: merchant.apiKey, body: { url: receiverUrl } }),
  "invoice.created": () => createInvoice(),
  "invoice.payment_received": async () => {
    const invoice = await createInvoice();
    await confirm({ externalId: "tx-invoice-part", amount: "5.00", invoiceId: invoice.id });
  },
  "invoice.payment_failed": async () => {
    const invoice = await createInvoice();
    await confirm({ externalId: "tx-invoice-failed", status: "failed", invoiceId: invoice.id });
  },
  "invoice.processing": async () => {
    const invoice = await createInvoice();
    await confirm({ externalId: "tx-invoice-pending", status: "pending", invoiceId: invoice.id });
  },
  "invoice.paid": async () => {
    const invoice = await createInvoice();
    await confirm({ externalId: "tx-invoice-paid", invoiceId: invoice.id });
  },
  "invoice.expired": async () => {
    await createInvoice({ expiresIn: 60 });
    runtime.advanceTime(61_000);
    await expireDueInvoices({ ctx: createServiceContext(runtime, { type: "system" }, "req_sweep"), input: {} });
  },
  "invoice.voided": async () => {
    const invoice = await createInvoice();
    await api.post(`/invoice/${invoice.id}/void`, { key: merchant.apiKey });
  },
  "webhook.endpoint_disabled": async () => {
    await api.post("/webhook/endpoint", { key: merchant.apiKey, body: { url: receiverUrl.replace(/\/hook$/, "/gone") } });
    await confirm({ externalId: "tx-to-gone" });
    await deliverDueNow(deliveryDepsFor(runtime));
  },
  "refund.created": () => refundOf("tx-refund-created", { amount: "5.00", reason: "duplicate", metadata: { rma: "1" } }),
  "refund.claimed": async () => {
    const refund = await refundOf("tx-refund-claimed", { claim: { instructions: "Your IBAN, please" } });
    const token = refund.claimUrl.split("/refund/")[1]!;
    await claimRefund({ ctx: createServiceContext(runtime, { type: "anonymous" }, "req_claim"), input: { token, destination: "DE89 3704 0044 0532 0130 00" } });
  },
  "refund.succeeded": () => refundOf("tx-refund-succeeded", { status: "succeeded", externalId: "re_proc_1" }),
  "refund.failed": async () => {
    const refund = await refundOf("tx-refund-failed");
    await api.post(`/refund/${refund.id}`, { key: merchant.apiKey, body: { status: "failed", failureReason: "account_closed" } });
  },
  "refund.canceled": async () => {
    const refund = await refundOf("tx-refund-canceled");
    await api.post(`/refund/${refund.id}/cancel`, { key: merchant.apiKey });
  },
};

// The documented payloads are declared beside the code that emits them, not derived from it: this holds the
// two together by causing each event through the API and parsing what would be sent with the documented schema.
describe("webhook payloads match the OpenAPI document", () => {
  it.each(eventTypes.map((type) => [type]))("%s", async (type) => {
    await producers[type]();
    const rows = (await runtime.database.db.select().from(events)).filter((row) => row.type === type);
    expect(rows.length, `no ${type} event was emitted`).toBeGreaterThan(0);
    for (const row of rows) {
      const body = JSON.parse(webhookBody(row));
      const result = eventBodySchema(type).safeParse(body);
      expect(result.success ? [] : result.error.issues, JSON.stringify(body)).toEqual([]);
    }
  });

  it("the OpenAPI document's webhooks describe every event type, and nothing else", () => {
    expect(Object.keys(openApiDocument().webhooks ?? {}).sort()).toEqual([...eventTypes].sort());
  });

  it("the documented signature example verifies with the documented secret (standardwebhooks)", () => {
    const headers = { "webhook-id": EXAMPLE_IDS.event, "webhook-timestamp": EXAMPLE_UNIX_TIME, "webhook-signature": EXAMPLE_SIGNATURE };
    // The library checks the timestamp against its clock: verify at the example's own moment.
    const verifier = new Webhook(EXAMPLE_WEBHOOK_SECRET);
    const realNow = Date.now;
    Date.now = () => Number(EXAMPLE_UNIX_TIME) * 1000;
    try {
      expect(verifier.verify(EXAMPLE_EVENT_BODY, headers)).toEqual(JSON.parse(EXAMPLE_EVENT_BODY));
    } finally {
      Date.now = realNow;
    }
  });
});
