import { and, eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "../../../src/server/db/schema";
import type { SessionUser } from "../../../src/server/services/users/session-user";
import { deliveryAsCurl } from "../../../src/server/services/webhooks/curl";
import { testClient, type TestClient } from "../../support/client";
import { dashboardAs, merchantSession } from "../../support/dashboard";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { createTestStaff, serviceContext } from "../../support/users";
import { seedFailedDelivery } from "../webhooks/seed";

let runtime: TestRuntime;
let api: TestClient;
let staff: SessionUser;
let shopA: TestMerchant;
let shopB: TestMerchant;
const as = (session: SessionUser | null) => dashboardAs(runtime, session);
const sessionOf = merchantSession;

beforeAll(async () => {
  runtime = await createTestRuntime();
  api = testClient(runtime);
  staff = (await createTestStaff(runtime)).user;
  shopA = await registerTestMerchant(api, { webhookUrl: "https://hooks.example.com/a" });
  shopB = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

/**
 * Parses the command's quoted arguments back (it only uses '…' quoting, with '\'' for a quote) to check it
 * is a request a receiver would accept.
 */
function parseCurl(command: string) {
  const args = [...command.matchAll(/'((?:[^']|'\\'')*)'/g)].map((match) => match[1]!.replaceAll(`'\\''`, "'"));
  const [url, ...rest] = args;
  const body = rest.pop()!;
  const headers = Object.fromEntries(rest.map((header) => [header.slice(0, header.indexOf(":")), header.slice(header.indexOf(":") + 2)]));
  return { url, headers, body };
}

describe("events.forSubject", () => {
  it("lists a payment's events with their deliveries, for its own merchant only", async () => {
    const created = await api.post("/payment/confirm", {
      key: shopA.apiKey,
      body: { externalId: `tx-${Date.now()}`, amount: "10.00", currency: "USD", status: "pending" },
    });
    expect(created.status).toBe(201);
    await api.post("/payment/confirm", {
      key: shopA.apiKey,
      body: { externalId: created.body.externalId, amount: "10.00", currency: "USD", status: "confirmed" },
    });
    const history = await as(sessionOf(shopA)).events.forSubject({ subjectId: created.body.id });
    expect(history.data.map((event) => event.type)).toEqual(["payment.pending", "payment.confirmed"]);
    expect(history.data[0]!.deliveries).toEqual([
      expect.objectContaining({ status: "pending", url: "https://hooks.example.com/a", attemptCount: 0 }),
    ]);
    await expect(as(staff).events.forSubject({ subjectId: created.body.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("answers another merchant's payment, an unknown payment and a non-payment id with not_found, as REST does", async () => {
    const created = await api.post("/payment/confirm", {
      key: shopA.apiKey,
      body: { externalId: `tx-${Date.now()}`, amount: "3.00", currency: "EUR" },
    });
    expect(created.status).toBe(201);
    const notFound = { code: "NOT_FOUND", cause: { code: "not_found" } };
    await expect(as(sessionOf(shopB)).events.forSubject({ subjectId: created.body.id })).rejects.toMatchObject(notFound);
    expect((await api.get(`/payment/${created.body.id}`, { key: shopB.apiKey })).status).toBe(404);
    await expect(as(sessionOf(shopA)).events.forSubject({ subjectId: "pay_00000000000000000000000000" })).rejects.toMatchObject(notFound);
    await expect(as(sessionOf(shopA)).events.forSubject({ subjectId: shopA.merchant.id })).rejects.toMatchObject(notFound);
    expect((await as(sessionOf(shopA)).events.forSubject({ subjectId: created.body.id })).data).toHaveLength(1);
  });
});

describe("staff.merchant", () => {
  it("shows staff one merchant read-only and audit-logs the look", async () => {
    const merchant = await as(staff).staff.merchant({ merchantId: shopA.merchant.id });
    expect(merchant).toMatchObject({ id: shopA.merchant.id, email: shopA.merchant.email, webhookUrl: "https://hooks.example.com/a" });
    const rows = await runtime.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "staff.merchant_viewed"), eq(auditLog.merchantId, shopA.merchant.id)));
    expect(rows).toEqual([expect.objectContaining({ actorType: "staff", actorId: staff.id, targetId: shopA.merchant.id })]);
  });

  it("answers an unknown merchant with NOT_FOUND and refuses merchants", async () => {
    await expect(as(staff).staff.merchant({ merchantId: "mer_00000000000000000000000000" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(as(sessionOf(shopB)).staff.merchant({ merchantId: shopA.merchant.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("staff.failedDeliveries", () => {
  it("lists one merchant's failed deliveries for staff, and only that merchant's", async () => {
    const mine = await seedFailedDelivery(runtime.database.db, shopA.merchant.id);
    const theirs = await seedFailedDelivery(runtime.database.db, shopB.merchant.id);
    const list = await as(staff).staff.failedDeliveries({ merchantId: shopA.merchant.id });
    const ids = list.data.map((delivery) => delivery.id);
    expect(ids).toContain(mine);
    expect(ids).not.toContain(theirs);
    await expect(as(sessionOf(shopA)).staff.failedDeliveries({ merchantId: shopA.merchant.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });
});

describe("deliveryAsCurl", () => {
  it("builds a curl command whose signature the standardwebhooks library accepts with the merchant's secret", async () => {
    const id = await seedFailedDelivery(runtime.database.db, shopA.merchant.id);
    const ctx = serviceContext(runtime, { type: "user", userId: "usr_x", merchantId: shopA.merchant.id });
    const { command } = await deliveryAsCurl({ ctx, input: { id } });
    expect(command).not.toContain(shopA.webhookSecret);
    expect(command).not.toContain(shopA.webhookSecret.slice("whsec_".length));
    const { url, headers, body } = parseCurl(command);
    expect(url).toBe("https://hooks.example.com/in");
    expect(headers["content-type"]).toBe("application/json");
    const verified = new Webhook(shopA.webhookSecret).verify(body, headers);
    expect(verified).toMatchObject({ type: "payment.failed" });
  });

  it("answers another merchant's delivery with not_found", async () => {
    const id = await seedFailedDelivery(runtime.database.db, shopA.merchant.id);
    const ctx = serviceContext(runtime, { type: "user", userId: "usr_x", merchantId: shopB.merchant.id });
    await expect(deliveryAsCurl({ ctx, input: { id } })).rejects.toMatchObject({ code: "not_found" });
  });
});
