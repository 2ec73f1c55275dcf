import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events, payments, webhookDeliveries } from "../../src/server/db/schema";
import { listSettledEvents } from "../../src/server/services/events/list-settled";
import { testClient, type TestClient } from "../support/client";
import { serviceContext } from "../support/context";
import { dashboardAs, merchantSession, submitted } from "../support/dashboard";
import { createTestKey, registerTestMerchant, type TestMerchant } from "../support/merchants";
import { externalId } from "../support/payments";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;
let testKey: string;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  // A webhook URL on the profile: the live endpoint, which test events must never reach.
  shop = await registerTestMerchant(api, { webhookUrl: "https://hooks.example.com/live" });
  testKey = await createTestKey(api, shop);
});
afterAll(() => runtime.close());

const confirm = (key: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  api.post("/payment/confirm", { key, body: { amount: "10.00", currency: "EUR", ...body }, headers });
const createInvoice = (key: string, body: Record<string, unknown> = {}) =>
  api.post("/invoice", { key, body: { amount: "5.00", currency: "EUR", ...body } });

describe("POST /merchant/api-key", () => {
  it("without a body makes a live key, as before test mode", async () => {
    const response = await api.post("/merchant/api-key", { key: shop.apiKey });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.secret).toMatch(/^sk_live_[0-9A-Za-z]{49}$/);
    expect(response.body.apiKey).toMatchObject({ mode: "live", status: "active", hint: "…" + response.body.secret.slice(-4) });
  });

  it("with mode test makes an sk_test_ key that authenticates in test mode", async () => {
    const response = await api.post("/merchant/api-key", { key: shop.apiKey, body: { mode: "test", name: "CI" } });
    expect(response.status).toBe(201);
    expect(response.body.secret).toMatch(/^sk_test_[0-9A-Za-z]{49}$/);
    expect(response.body.apiKey).toMatchObject({ mode: "test", name: "CI" });
    const made = await confirm(response.body.secret, { externalId: externalId("new-test-key") });
    expect(made.status).toBe(201);
    expect((await api.get(`/payment/${made.body.id}`, { key: shop.apiKey })).status).toBe(404);
  });

  it("refuses an unknown mode with 400 naming the field, and makes nothing", async () => {
    const before = await dashboardAs(runtime, merchantSession(shop)).apiKeys.list({ limit: 100 });
    const response = await api.post("/merchant/api-key", { key: shop.apiKey, body: { mode: "sandbox" } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("validation_failed");
    expect(response.body.errors.map((error: { path: string }) => error.path)).toContain("body.mode");
    const after = await dashboardAs(runtime, merchantSession(shop)).apiKeys.list({ limit: 100 });
    expect(after.data.length).toBe(before.data.length);
  });

  it("a test key makes test keys only: a live one (also the body-less default) is 403 forbidden", async () => {
    for (const body of [{ mode: "live" }, undefined]) {
      const response = await api.post("/merchant/api-key", { key: testKey, body });
      expect(response.status, JSON.stringify(body)).toBe(403);
      expect(response.body.code).toBe("forbidden");
    }
    const test = await api.post("/merchant/api-key", { key: testKey, body: { mode: "test" } });
    expect(test.status).toBe(201);
    expect(test.body.secret).toMatch(/^sk_test_/);
  });

  it("the dashboard makes test keys too, and lists every key with its mode", async () => {
    const created = await dashboardAs(runtime, merchantSession(shop)).apiKeys.create(submitted({ mode: "test", name: "from the dashboard" }));
    expect(created.key).toMatch(/^sk_test_/);
    const listed = await dashboardAs(runtime, merchantSession(shop)).apiKeys.list({ limit: 100 });
    expect(listed.data.find((key) => key.id === created.apiKey.id)).toMatchObject({ mode: "test" });
    expect(JSON.stringify(listed)).not.toContain(created.key);
  });
});

describe("payments and invoices per mode", () => {
  it("the same externalId is two payments, one per mode; each key sees only its own", async () => {
    const id = externalId("both-modes");
    const live = await confirm(shop.apiKey, { externalId: id, amount: "1.00" });
    const test = await confirm(testKey, { externalId: id, amount: "2.00" });
    expect(live.status).toBe(201);
    expect(test.status).toBe(201);
    expect(test.body.id).not.toBe(live.body.id);
    expect((await api.get(`/payment/${test.body.id}`, { key: shop.apiKey })).body.code).toBe("not_found");
    expect((await api.get(`/payment/${live.body.id}`, { key: testKey })).body.code).toBe("not_found");
    const liveList = await api.get("/payment", { key: shop.apiKey, query: { externalId: id } });
    const testList = await api.get("/payment", { key: testKey, query: { externalId: id } });
    expect(liveList.body.data.map((row: { id: string }) => row.id)).toEqual([live.body.id]);
    expect(testList.body.data.map((row: { id: string }) => row.id)).toEqual([test.body.id]);
    // Confirming in one mode never moves the other mode's payment.
    const pending = externalId("pending-both");
    await confirm(shop.apiKey, { externalId: pending, status: "pending" });
    await confirm(testKey, { externalId: pending, status: "pending" });
    expect((await confirm(testKey, { externalId: pending, status: "confirmed" })).body.status).toBe("confirmed");
    expect((await api.get("/payment", { key: shop.apiKey, query: { externalId: pending } })).body.data[0].status).toBe("pending");
  });

  it("the same orderId may be open in both modes", async () => {
    const orderId = `order-${externalId()}`;
    expect((await createInvoice(shop.apiKey, { orderId })).status).toBe(201);
    expect((await createInvoice(testKey, { orderId })).status).toBe(201);
    expect((await createInvoice(testKey, { orderId })).body.code).toBe("order_id_taken");
  });

  it("the public checkout of a test invoice says it is test data; a live one's does not", async () => {
    const test = await createInvoice(testKey);
    const live = await createInvoice(shop.apiKey);
    expect((await api.get(`/checkout/${test.body.id}`)).body).toMatchObject({ id: test.body.id, livemode: false });
    expect((await api.get(`/checkout/${live.body.id}`)).body).toMatchObject({ id: live.body.id, livemode: true });
  });

  it("a payment never attaches to the other mode's invoice (404 invoice_not_found, nothing recorded)", async () => {
    const live = await createInvoice(shop.apiKey);
    const id = externalId("cross-invoice");
    const response = await confirm(testKey, { externalId: id, amount: "5.00", invoiceId: live.body.id });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe("invoice_not_found");
    expect(await runtime.database.db.select().from(payments).where(eq(payments.externalId, id))).toEqual([]);
  });

  it("a cursor from one mode's list is refused by the other mode's", async () => {
    for (let n = 0; n < 2; n++) await confirm(testKey, { externalId: externalId("page") });
    const page = await api.get("/payment", { key: testKey, query: { limit: 1 } });
    expect(page.body.nextCursor).toEqual(expect.any(String));
    const crossed = await api.get("/payment", { key: shop.apiKey, query: { limit: 1, cursor: page.body.nextCursor } });
    expect(crossed.status).toBe(400);
    expect(crossed.body.code).toBe("invalid_cursor");
  });

  it("an Idempotency-Key used by the live key is a different request for the test key", async () => {
    const headers = { "idempotency-key": `idem-${externalId()}` };
    const body = { externalId: externalId("idem"), amount: "3.00" };
    const live = await confirm(shop.apiKey, body, headers);
    const test = await confirm(testKey, body, headers);
    expect(live.status).toBe(201);
    expect(test.status).toBe(201);
    expect(test.headers.get("idempotent-replayed")).toBeNull();
    expect(test.body.id).not.toBe(live.body.id);
  });
});

describe("statistics per mode", () => {
  it("test payments never count in live statistics, and the reverse", async () => {
    const merchant = await registerTestMerchant(api);
    const key = await createTestKey(api, merchant);
    await confirm(merchant.apiKey, { externalId: externalId("stat-live"), amount: "1.00" });
    for (const amount of ["20.00", "30.00"]) await confirm(key, { externalId: externalId("stat-test"), amount });
    const live = await api.get(`/merchant/${merchant.merchant.id}/stats`, { key: merchant.apiKey });
    const test = await api.get(`/merchant/${merchant.merchant.id}/stats`, { key });
    expect(live.body.payments.total).toBe(1);
    expect(live.body.volume).toEqual([{ currency: "EUR", amount: "1.00", count: 1 }]);
    expect(test.body.payments.total).toBe(2);
    expect(test.body.volume).toEqual([{ currency: "EUR", amount: "50.00", count: 2 }]);
    const dashboard = await dashboardAs(runtime, merchantSession(merchant), { livemode: false }).payments.stats({});
    expect(dashboard.payments.total).toBe(2);
  });
});

describe("webhooks in test mode", () => {
  it("a test event is recorded as test and makes no delivery to the live webhook URL", async () => {
    const live = await confirm(shop.apiKey, { externalId: externalId("hook-live") });
    const test = await confirm(testKey, { externalId: externalId("hook-test") });
    const deliveriesOf = async (subjectId: string) => {
      const [event] = await runtime.database.db.select().from(events).where(eq(events.subjectId, subjectId));
      const rows = await runtime.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, event!.id));
      return { event: event!, rows };
    };
    const liveSide = await deliveriesOf(live.body.id);
    const testSide = await deliveriesOf(test.body.id);
    expect(liveSide.event.livemode).toBe(true);
    expect(liveSide.rows).toHaveLength(1);
    expect(testSide.event.livemode).toBe(false);
    expect(testSide.rows).toEqual([]);
  });
});

describe("webhook endpoints per mode", () => {
  it("a test key's endpoint is a test endpoint: it gets test events only, and live keys never see it", async () => {
    const merchant = await registerTestMerchant(api, { webhookUrl: "https://hooks.example.com/live-default" });
    const key = await createTestKey(api, merchant);
    const created = await api.post("/webhook/endpoint", { key, body: { url: "https://hooks.example.com/test-only" } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const endpointId = created.body.endpoint.id;
    expect((await api.get(`/webhook/endpoint/${endpointId}`, { key: merchant.apiKey })).status).toBe(404);
    const liveList = await api.get("/webhook/endpoint", { key: merchant.apiKey });
    expect(liveList.body.data.map((row: { id: string }) => row.id)).not.toContain(endpointId);
    const testList = await api.get("/webhook/endpoint", { key });
    expect(testList.body.data.map((row: { id: string }) => row.id)).toEqual([endpointId]);

    const live = await confirm(merchant.apiKey, { externalId: externalId("ep-live") });
    const test = await confirm(key, { externalId: externalId("ep-test") });
    const targets = async (subjectId: string) => {
      const [event] = await runtime.database.db.select().from(events).where(eq(events.subjectId, subjectId));
      const rows = await runtime.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, event!.id));
      return rows.map((row) => row.url);
    };
    expect(await targets(live.body.id)).toEqual(["https://hooks.example.com/live-default"]);
    expect(await targets(test.body.id)).toEqual(["https://hooks.example.com/test-only"]);
    // Each mode's event log and delivery list show their own only.
    const liveEvents = (await api.get("/event", { key: merchant.apiKey })).body.data.map((row: { data: { id: string } }) => row.data.id);
    const testEvents = (await api.get("/event", { key })).body.data.map((row: { data: { id: string } }) => row.data.id);
    expect(liveEvents).toContain(live.body.id);
    expect(liveEvents).not.toContain(test.body.id);
    expect(testEvents).toEqual([test.body.id]);
    const testDeliveries = (await api.get("/webhook/delivery", { key })).body.data.map((row: { endpointId: string }) => row.endpointId);
    expect(testDeliveries).toEqual([endpointId]);
  });
});

describe("the event stream (npm run listen)", () => {
  it("streams the key's mode's events only", async () => {
    const merchant = await registerTestMerchant(api);
    const key = await createTestKey(api, merchant);
    const live = await confirm(merchant.apiKey, { externalId: externalId("stream-live") });
    const test = await confirm(key, { externalId: externalId("stream-test") });
    const streamed = async (livemode: boolean) => {
      const ctx = serviceContext(runtime, { type: "api_key", merchantId: merchant.merchant.id, keyId: "key_stream", livemode });
      return (await listSettledEvents({ ctx, input: { limit: 100 } })).map((event) => event.data.id);
    };
    // The stream reads only settled events: a second behind the database's clock (docs/developer-tools.md). The
    // test event was recorded last: once it is settled, both are.
    await expect.poll(async () => (await streamed(false)).length, { timeout: 15_000, interval: 100 }).toBeGreaterThan(0);
    expect(await streamed(true)).toEqual([live.body.id]);
    expect(await streamed(false)).toEqual([test.body.id]);
  });
});

describe("account settings stay live", () => {
  it("a test key cannot change the profile (which holds the live webhook URL): 403, nothing changed", async () => {
    const response = await api.put(`/merchant/${shop.merchant.id}`, { key: testKey, body: { webhookUrl: "https://attacker.example/hook" } });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe("forbidden");
    const profile = await api.get(`/merchant/${shop.merchant.id}`, { key: testKey });
    expect(profile.status).toBe(200);
    expect(profile.body.webhookUrl).toBe("https://hooks.example.com/live");
  });
});

describe("POST /test/invoice/{id}/pay", () => {
  const pay = (key: string, id: string, body: Record<string, unknown> = {}) => api.post(`/test/invoice/${id}/pay`, { key, body });

  it("pays a test invoice in full through the confirm path: invoice paid, payment attached, events written", async () => {
    const invoice = await createInvoice(testKey, { amount: "12.50" });
    const response = await pay(testKey, invoice.body.id);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.payment).toMatchObject({ amount: "12.50", currency: "EUR", status: "confirmed", invoiceId: invoice.body.id, method: "test", metadata: { simulated: true } });
    expect(response.body.payment.externalId).toMatch(/^sim_/);
    expect(response.body.invoice).toMatchObject({ id: invoice.body.id, status: "paid", amountPaid: "12.50", amountRemaining: "0.00" });
    expect(response.body.invoice.payments.map((payment: { id: string }) => payment.id)).toEqual([response.body.payment.id]);
    const types = (await runtime.database.db.select().from(events).where(and(eq(events.subjectId, invoice.body.id), eq(events.livemode, false)))).map((event) => event.type);
    expect(types).toEqual(expect.arrayContaining(["invoice.created", "invoice.payment_received", "invoice.paid"]));
  });

  it("pays part, then what is still owed; a pending simulated payment makes the invoice processing", async () => {
    const invoice = await createInvoice(testKey, { amount: "10.00" });
    const part = await pay(testKey, invoice.body.id, { amount: "4.00" });
    expect(part.body.invoice).toMatchObject({ status: "open", amountPaid: "4.00", amountRemaining: "6.00" });
    const pending = await pay(testKey, invoice.body.id, { status: "pending" });
    expect(pending.body.payment).toMatchObject({ amount: "6.00", status: "pending" });
    expect(pending.body.invoice).toMatchObject({ status: "processing", amountPending: "6.00" });
    const confirmed = await confirm(testKey, { externalId: pending.body.payment.externalId, amount: "6.00", status: "confirmed" });
    expect(confirmed.status).toBe(200);
    expect((await api.get(`/invoice/${invoice.body.id}`, { key: testKey })).body.status).toBe("paid");
  });

  it("with a live key: 403 test_mode_only, also for a live invoice, and nothing is recorded", async () => {
    const live = await createInvoice(shop.apiKey);
    const response = await pay(shop.apiKey, live.body.id);
    expect(response.status).toBe(403);
    expect(response.body.code).toBe("test_mode_only");
    expect((await api.get(`/invoice/${live.body.id}`, { key: shop.apiKey })).body).toMatchObject({ status: "open", payments: [] });
  });

  it("a live invoice, another merchant's or an unknown id: 404 not_found", async () => {
    const live = await createInvoice(shop.apiKey);
    const other = await registerTestMerchant(api);
    const othersTest = await createInvoice(await createTestKey(api, other));
    for (const id of [live.body.id, othersTest.body.id, "inv_01jd7z9e4f5g6h7j8k9m0n1p2q", "nope"]) {
      const response = await pay(testKey, id);
      expect(response.status, id).toBe(404);
      expect(response.body.code).toBe("not_found");
    }
  });

  it("refuses a bad amount or status with 400 naming the field; a void invoice with 409 invoice_not_payable", async () => {
    const invoice = await createInvoice(testKey);
    for (const [body, field] of [
      [{ amount: "abc" }, "body.amount"],
      [{ amount: "1.234" }, "body.amount"],
      [{ status: "refunded" }, "body.status"],
      [{ surprise: 1 }, "body.surprise"],
    ] as const) {
      const response = await pay(testKey, invoice.body.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.errors.map((error: { path: string }) => error.path).join(" "), JSON.stringify(body)).toContain(field);
    }
    await api.post(`/invoice/${invoice.body.id}/void`, { key: testKey });
    const refused = await pay(testKey, invoice.body.id);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("invoice_not_payable");
    expect((await api.get(`/invoice/${invoice.body.id}`, { key: testKey })).body.payments).toEqual([]);
  });
});

describe("the dashboard's test-mode switch", () => {
  it("shows the chosen mode's payments and invoices only", async () => {
    const live = await confirm(shop.apiKey, { externalId: externalId("dash-live") });
    const test = await confirm(testKey, { externalId: externalId("dash-test") });
    const liveIds = (await dashboardAs(runtime, merchantSession(shop)).payments.list({ limit: 100 })).data.map((row) => row.id);
    const testIds = (await dashboardAs(runtime, merchantSession(shop), { livemode: false }).payments.list({ limit: 100 })).data.map((row) => row.id);
    expect(liveIds).toContain(live.body.id);
    expect(liveIds).not.toContain(test.body.id);
    expect(testIds).toContain(test.body.id);
    expect(testIds).not.toContain(live.body.id);
    const invoice = await dashboardAs(runtime, merchantSession(shop), { livemode: false }).invoices.create(submitted({ amount: "3.00", currency: "EUR" }));
    await expect(dashboardAs(runtime, merchantSession(shop)).invoices.get({ id: invoice.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await api.get(`/invoice/${invoice.id}`, { key: testKey })).status).toBe(200);
  });
});
