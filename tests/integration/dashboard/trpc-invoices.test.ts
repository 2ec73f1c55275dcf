import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "../../../src/server/db/schema";
import { testClient, type TestClient } from "../../support/client";
import { dashboardAs, merchantSession, STAFF_SESSION, submitted } from "../../support/dashboard";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { externalId } from "../../support/payments";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";

let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  runtime = await createTestRuntime({ env: { RATE_LIMIT_PER_USER: "10000" } });
  api = testClient(runtime);
  shop = await registerTestMerchant(api);
  other = await registerTestMerchant(api);
});
afterAll(() => runtime.close());

const merchant = () => dashboardAs(runtime, merchantSession(shop));
const staff = () => dashboardAs(runtime, STAFF_SESSION);

describe("invoices in the dashboard", () => {
  it("create, list, get with events, void and the overview counts, for the merchant's own only", async () => {
    const created = await merchant().invoices.create(submitted({ amount: "12.00", currency: "EUR", orderId: externalId("o") }));
    expect(created).toMatchObject({ status: "open", amount: "12.00" });
    const paid = await merchant().invoices.create(submitted({ amount: "3.00", currency: "EUR" }));
    await api.post("/payment/confirm", { key: shop.apiKey, body: { externalId: externalId("p"), amount: "3.00", currency: "EUR", invoiceId: paid.id } });

    const list = await merchant().invoices.list({ limit: 10 });
    expect(list.data.map((invoice) => invoice.id)).toEqual([paid.id, created.id]);
    expect((await merchant().invoices.list({ status: "paid" })).data.map((invoice) => invoice.id)).toEqual([paid.id]);
    expect((await merchant().invoices.get({ id: paid.id })).payments).toHaveLength(1);
    const history = await merchant().events.forSubject({ subjectId: paid.id });
    expect(history.data.map((event) => event.type)).toEqual(["invoice.created", "invoice.payment_received", "invoice.paid"]);

    expect(await merchant().invoices.stats()).toEqual({ open: 1, processing: 0, paid: 1, expired: 0, void: 0, paidShare: 1 });
    await merchant().invoices.void({ id: created.id });
    expect((await merchant().invoices.stats()).void).toBe(1);

    const intruder = dashboardAs(runtime, merchantSession(other));
    await expect(intruder.invoices.get({ id: paid.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(intruder.events.forSubject({ subjectId: paid.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(intruder.invoices.void({ id: paid.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("staff mark an invoice paid or void with a reason: statusDetail marked, event, audit row", async () => {
    const toPay = await merchant().invoices.create(submitted({ amount: "7.00", currency: "EUR" }));
    const toVoid = await merchant().invoices.create(submitted({ amount: "7.00", currency: "EUR" }));
    await expect(merchant().invoices.staff.markPaid(submitted({ merchantId: shop.merchant.id, invoiceId: toPay.id, reason: "x" }))).rejects.toMatchObject({ code: "FORBIDDEN" });

    const paid = await staff().invoices.staff.markPaid(submitted({ merchantId: shop.merchant.id, invoiceId: toPay.id, reason: "Bank transfer seen on statement 42" }));
    expect(paid).toMatchObject({ status: "paid", statusDetail: "marked", amountPaid: "0.00" });
    const voided = await staff().invoices.staff.markVoid(submitted({ merchantId: shop.merchant.id, invoiceId: toVoid.id, reason: "Customer cancelled by phone" }));
    expect(voided).toMatchObject({ status: "void", statusDetail: "marked" });
    await expect(staff().invoices.staff.markVoid(submitted({ merchantId: shop.merchant.id, invoiceId: toPay.id, reason: "again" }))).rejects.toMatchObject({ code: "CONFLICT" });
    // The merchant id must be the invoice's: another merchant's invoice is not found.
    await expect(staff().invoices.staff.markPaid(submitted({ merchantId: other.merchant.id, invoiceId: toVoid.id, reason: "wrong shop" }))).rejects.toMatchObject({ code: "NOT_FOUND" });

    const rows = await runtime.database.db.select().from(auditLog).where(and(eq(auditLog.targetType, "invoice"), eq(auditLog.merchantId, shop.merchant.id)));
    expect(rows.map((row) => [row.action, row.targetId, row.actorId, row.details])).toEqual(
      expect.arrayContaining([
        ["invoice.marked_paid", toPay.id, STAFF_SESSION.id, { reason: "Bank transfer seen on statement 42", previousStatus: "open" }],
        ["invoice.marked_void", toVoid.id, STAFF_SESSION.id, { reason: "Customer cancelled by phone", previousStatus: "open" }],
      ]),
    );
    expect((await merchant().events.forSubject({ subjectId: toPay.id })).data.map((event) => event.type)).toEqual(["invoice.created", "invoice.paid"]);
  });
});
