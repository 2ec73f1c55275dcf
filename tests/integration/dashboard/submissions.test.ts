import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys, auditLog, idempotencyKeys, invoices, webhookEndpoints } from "../../../src/server/db/schema";
import { testClient, type TestClient } from "../../support/client";
import { dashboardAs, merchantSession, STAFF_SESSION, submitted } from "../../support/dashboard";
import { registerTestMerchant, type TestMerchant } from "../../support/merchants";
import { externalId } from "../../support/payments";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";

// Dashboard forms that create something run once per submission (docs/dashboard.md, "Forms that create"): the
// same submission sent twice — a double click, a retried request — makes one thing and answers it twice.
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

const as = (merchant: TestMerchant, livemode = true) => dashboardAs(runtime, merchantSession(merchant), { livemode });
const db = () => runtime.database.db;

async function rows(table: typeof apiKeys | typeof invoices | typeof webhookEndpoints, merchantId: string) {
  const [row] = await db().select({ n: count() }).from(table).where(eq(table.merchantId, merchantId));
  return row!.n;
}

describe("a dashboard form submitted twice", () => {
  it("Create invoice: one invoice, the same answer twice (in turn and at once), not 'already exists'", async () => {
    const submission = submitted({ amount: "12.00", currency: "EUR", orderId: externalId("order") });
    const before = await rows(invoices, shop.merchant.id);
    const first = await as(shop).invoices.create(submission);
    const again = await as(shop).invoices.create(submission);
    expect(again).toEqual(first);
    const raced = submitted({ amount: "5.00", currency: "EUR", orderId: externalId("order") });
    const [a, b] = await Promise.all([as(shop).invoices.create(raced), as(shop).invoices.create(raced)]);
    expect(a.id).toBe(b.id);
    expect(await rows(invoices, shop.merchant.id)).toBe(before + 2);
    // A new submission of the same order id is a new attempt, refused as before.
    await expect(as(shop).invoices.create(submitted(submission.input))).rejects.toMatchObject({ cause: { code: "order_id_taken" } });
  });

  it("Create key: one key, its secret in the first answer only; at once too", async () => {
    const before = await rows(apiKeys, shop.merchant.id);
    const submission = submitted({ name: "double click", mode: "live" as const });
    const first = await as(shop).apiKeys.create(submission);
    const again = await as(shop).apiKeys.create(submission);
    expect(first.key).toMatch(/^sk_live_/);
    expect(again).toEqual({ ...first, key: null });
    const raced = submitted({ name: "raced", mode: "test" as const });
    const answers = await Promise.all([as(shop).apiKeys.create(raced), as(shop).apiKeys.create(raced)]);
    expect(answers[0]!.apiKey.id).toBe(answers[1]!.apiKey.id);
    expect(answers.filter((answer) => answer.key !== null)).toHaveLength(1);
    expect(await rows(apiKeys, shop.merchant.id)).toBe(before + 2);
    // The secret of the first answer is not kept for replays.
    const stored = JSON.stringify(await db().select({ body: idempotencyKeys.responseBody }).from(idempotencyKeys));
    expect(stored).not.toContain(first.key!);
    expect(stored).not.toContain(answers.find((answer) => answer.key)!.key!);
  });

  it("Add endpoint (claimed before it runs): a duplicate during the first is refused, after it replayed", async () => {
    const before = await rows(webhookEndpoints, shop.merchant.id);
    const submission = submitted({ url: "https://hooks.example.com/double-click" });
    const settled = await Promise.allSettled([as(shop).webhookEndpoints.create(submission), as(shop).webhookEndpoints.create(submission)]);
    const made = settled.filter((result) => result.status === "fulfilled").map((result) => result.value);
    for (const result of settled) {
      if (result.status === "rejected") expect(result.reason).toMatchObject({ cause: { code: "idempotency_key_in_use" } });
    }
    const replay = await as(shop).webhookEndpoints.create(submission);
    expect(replay.endpoint.id).toBe(made[0]!.endpoint.id);
    expect(replay.secret).toBeNull();
    expect(made.filter((answer) => answer.secret !== null)).toHaveLength(1);
    expect(await rows(webhookEndpoints, shop.merchant.id)).toBe(before + 1);
  });

  it("the same key with other input is refused; another merchant's or the other mode's same key is its own", async () => {
    const submission = submitted({ amount: "1.00", currency: "EUR" });
    const mine = await as(shop).invoices.create(submission);
    await expect(as(shop).invoices.create({ ...submission, input: { amount: "2.00", currency: "EUR" } })).rejects.toMatchObject({
      cause: { code: "idempotency_key_reused" },
    });
    const theirs = await as(other).invoices.create(submission);
    const test = await as(shop, false).invoices.create(submission);
    expect(new Set([mine.id, theirs.id, test.id]).size).toBe(3);
    const [row] = await db().select({ livemode: invoices.livemode }).from(invoices).where(eq(invoices.id, test.id));
    expect(row).toEqual({ livemode: false });
  });

  it("staff Mark paid: marks once, and the second click shows the same invoice (not 'invalid transition'), audited once", async () => {
    const invoice = await as(shop).invoices.create(submitted({ amount: "7.00", currency: "EUR" }));
    const submission = submitted({ merchantId: shop.merchant.id, invoiceId: invoice.id, reason: "Transfer seen on statement 7" });
    const staff = dashboardAs(runtime, STAFF_SESSION);
    const [first, second] = await Promise.all([staff.invoices.staff.markPaid(submission), staff.invoices.staff.markPaid(submission)]);
    expect(second).toEqual(first);
    expect(first).toMatchObject({ status: "paid", statusDetail: "marked" });
    const audit = await db().select().from(auditLog).where(and(eq(auditLog.targetId, invoice.id), eq(auditLog.action, "invoice.marked_paid")));
    expect(audit).toHaveLength(1);
  });

  it("refuses a malformed idempotency key and a submission without one", async () => {
    await expect(as(shop).invoices.create({ idempotencyKey: "", input: { amount: "1.00", currency: "EUR" } })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(as(shop).invoices.create({ idempotencyKey: "with space", input: { amount: "1.00", currency: "EUR" } })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(as(shop).invoices.create({ amount: "1.00", currency: "EUR" } as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
