import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "../../../src/server/db/schema";
import { testClient, type TestClient } from "../../support/client";
import { dashboardAs, merchantSession, submitted } from "../../support/dashboard";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { externalId } from "../../support/payments";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";

let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  shop = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

const entries = (action: string) =>
  runtime.database.db.select().from(auditLog).where(and(eq(auditLog.merchantId, shop.merchant.id), eq(auditLog.action, action))).orderBy(asc(auditLog.seq));

async function payment(): Promise<string> {
  const response = await api.post("/payment/confirm", { key: shop.apiKey, body: { externalId: externalId("audit"), amount: "30.00", currency: "EUR" } });
  expect(response.status).toBe(201);
  return response.body.id;
}

describe("changes audited since the chain", () => {
  it("a team member's refund, and its cancellation with the status before and after; an API key's refund is the event log's", async () => {
    const dashboard = dashboardAs(runtime, merchantSession(shop));
    const refund = await dashboard.refunds.create(submitted({ paymentId: await payment(), amount: "5.00" }));
    await dashboard.refunds.cancel(submitted({ id: refund.id }));
    const viaApi = await api.post("/refund", { key: shop.apiKey, body: { paymentId: await payment(), amount: "1.00" } });
    expect(viaApi.status).toBe(201);

    const created = await entries("refund.created");
    expect(created.map((entry) => entry.targetId)).toEqual([refund.id]);
    expect(created[0]).toMatchObject({ actorType: "user", details: { amount: "5.00", currency: "EUR", status: "pending" } });
    const [canceled] = await entries("refund.updated");
    expect(canceled!.details).toMatchObject({ changes: { status: { from: "pending", to: "canceled" } } });
  });

  it("voiding an invoice, with the status before and after", async () => {
    const invoice = await api.post("/invoice", { key: shop.apiKey, body: { amount: "5.00", currency: "EUR" } });
    expect((await api.post(`/invoice/${invoice.body.id}/void`, { key: shop.apiKey })).status).toBe(200);
    const [voided] = await entries("invoice.voided");
    expect(voided).toMatchObject({ actorType: "api_key", targetId: invoice.body.id, details: { changes: { status: { from: "open", to: "void" } } } });
  });
});
