import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliveryDepsFor } from "../../src/server/background/start";
import { deliverDueNow } from "../support/deliver-due-now";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { externalId } from "../support/payments";
import { createTestRuntime, type TestRuntime } from "../support/runtime";
import { startReceiver, type TestReceiver } from "./webhooks/receiver";

let runtime: TestRuntime;
let api: TestClient;
let receiver: TestReceiver;
let shop: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  receiver = await startReceiver();
  shop = await registerTestMerchant(api, { webhookUrl: receiver.url() });
});
afterAll(async () => {
  await receiver.close();
  await runtime.close();
});

describe("invoice events reach the merchant", () => {
  it("created, payment_received, processing, paid and voided arrive signed; standardwebhooks verifies each", async () => {
    const invoice = (await api.post("/invoice", { key: shop.apiKey, body: { amount: "12.00", currency: "EUR", orderId: "o-1" } })).body;
    const ext = externalId("hook");
    await api.post("/payment/confirm", { key: shop.apiKey, body: { externalId: ext, amount: "12.00", currency: "EUR", status: "pending", invoiceId: invoice.id } });
    await api.post("/payment/confirm", { key: shop.apiKey, body: { externalId: ext, amount: "12.00", currency: "EUR", status: "confirmed" } });
    const other = (await api.post("/invoice", { key: shop.apiKey, body: { amount: "1.00", currency: "EUR" } })).body;
    await api.post(`/invoice/${other.id}/void`, { key: shop.apiKey });

    await deliverDueNow(deliveryDepsFor(runtime));
    const verifier = new Webhook(shop.webhookSecret);
    const bodies = receiver.received.map((request) => verifier.verify(request.body, request.headers) as { type: string; data: { id: string; status: string; amountPaid: string } });
    const forInvoice = bodies.filter((body) => body.data.id === invoice.id);
    expect(forInvoice.map((body) => body.type).sort()).toEqual(
      ["invoice.created", "invoice.payment_received", "invoice.processing", "invoice.payment_received", "invoice.paid"].sort(),
    );
    const paid = forInvoice.find((body) => body.type === "invoice.paid")!;
    expect(paid.data).toMatchObject({ status: "paid", amountPaid: "12.00", orderId: "o-1" });
    expect(bodies.filter((body) => body.data.id === other.id).map((body) => body.type).sort()).toEqual(["invoice.created", "invoice.voided"]);
  });

  it("a pending payment that fails moves a processing invoice back to open, and invoice.payment_failed says so", async () => {
    const invoice = (await api.post("/invoice", { key: shop.apiKey, body: { amount: "30.00", currency: "EUR" } })).body;
    const ext = externalId("reopen");
    await api.post("/payment/confirm", { key: shop.apiKey, body: { externalId: ext, amount: "30.00", currency: "EUR", status: "pending", invoiceId: invoice.id } });
    await api.post("/payment/confirm", { key: shop.apiKey, body: { externalId: ext, amount: "30.00", currency: "EUR", status: "failed" } });

    await deliverDueNow(deliveryDepsFor(runtime));
    const verifier = new Webhook(shop.webhookSecret);
    const forInvoice = receiver.received
      .map((request) => verifier.verify(request.body, request.headers) as { type: string; data: { id: string; status: string; amountPending: string } })
      .filter((body) => body.data.id === invoice.id);
    // Deliveries run concurrently, so arrival order is not the events' order: compare them as a set.
    expect(forInvoice.map((body) => `${body.type} ${body.data.status}`).sort()).toEqual(
      ["invoice.created open", "invoice.payment_received processing", "invoice.processing processing", "invoice.payment_failed open"].sort(),
    );
    expect(forInvoice.find((body) => body.type === "invoice.payment_failed")!.data.amountPending).toBe("0.00");
    expect((await api.get(`/invoice/${invoice.id}`, { key: shop.apiKey })).body).toMatchObject({ status: "open", amountPending: "0.00" });
  });
});
