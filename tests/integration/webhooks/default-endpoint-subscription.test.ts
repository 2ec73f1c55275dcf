import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventTypes } from "../../../src/lib/event-types";
import { webhookDeliveries } from "../../../src/server/db/schema";
import { emitEvent } from "../../../src/server/services/events/emit";
import { testClient, type TestClient } from "../../support/client";
import { dashboardAs, merchantSession } from "../../support/dashboard";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { merchantContext } from "./context";

/*
 * An endpoint's subscription is changed only by what the user changed (docs/webhooks.md, "Endpoints"): saving the
 * profile's webhook URL — the dashboard's Endpoint form, or PUT merchant/{id} — never rewrites the default
 * endpoint's event types, so a later invoice.paid still has a delivery.
 */

let runtime: TestRuntime;
let api: TestClient;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
});
afterAll(() => runtime.close());

async function defaultEndpoint(merchant: TestMerchant) {
  const list = await api.get("/webhook/endpoint", { key: merchant.apiKey });
  return (list.body.data as { id: string; isDefault: boolean; url: string | null; eventTypes: string[] | null }[]).find((endpoint) => endpoint.isDefault)!;
}

async function invoicePaidReaches(merchant: TestMerchant, endpointId: string) {
  const { event } = await emitEvent({ ctx: merchantContext(runtime, merchant.merchant.id), input: { type: "invoice.paid", data: { id: "inv_x" } } });
  const deliveries = await runtime.database.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.eventId, event.id), eq(webhookDeliveries.endpointId, endpointId)));
  return deliveries.length === 1;
}

describe("saving the webhook URL leaves the subscription alone", () => {
  it("the dashboard's save of a URL: a fresh merchant's default endpoint keeps every event type, and invoice.paid is delivered", async () => {
    const merchant = await registerTestMerchant(api);
    expect((await defaultEndpoint(merchant)).eventTypes).toEqual([...eventTypes]);
    await dashboardAs(runtime, merchantSession(merchant)).merchants.update({ webhookUrl: "http://127.0.0.1:9/hooks" });
    const endpoint = await defaultEndpoint(merchant);
    expect(endpoint).toMatchObject({ url: "http://127.0.0.1:9/hooks", eventTypes: [...eventTypes] });
    expect(await invoicePaidReaches(merchant, endpoint.id)).toBe(true);
  });

  it("PUT merchant/{id} {webhookUrl}: an endpoint subscribed to every type (null) stays so, future types included", async () => {
    const merchant = await registerTestMerchant(api);
    const { id } = await defaultEndpoint(merchant);
    expect((await api.put(`/webhook/endpoint/${id}`, { key: merchant.apiKey, body: { eventTypes: null } })).body.eventTypes).toBeNull();
    const moved = await api.put(`/merchant/${merchant.merchant.id}`, { key: merchant.apiKey, body: { webhookUrl: "http://127.0.0.1:9/moved" } });
    expect(moved.status).toBe(200);
    expect(await defaultEndpoint(merchant)).toMatchObject({ url: "http://127.0.0.1:9/moved", eventTypes: null });
    // The event types, when they are what changed, are written as given.
    await api.put(`/merchant/${merchant.merchant.id}`, { key: merchant.apiKey, body: { webhookEvents: ["invoice.paid"] } });
    expect(await defaultEndpoint(merchant)).toMatchObject({ url: "http://127.0.0.1:9/moved", eventTypes: ["invoice.paid"] });
    expect(await invoicePaidReaches(merchant, id)).toBe(true);
  });
});
