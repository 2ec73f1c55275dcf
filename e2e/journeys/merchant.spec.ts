import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import {
  DESKTOP,
  downloaded,
  expectAccessible,
  expectNoSidewaysScroll,
  flipTestMode,
  PHONE,
  screenshot,
  sdk,
  signUpThroughForm,
  startReceiver,
  verifiedWebhooks,
} from "./support";

// A merchant's first day, across features: sign-up, the dashboard's webhook settings, the REST API, the
// checkout page, signed webhooks, and the dashboard's lists, statistics, export and event log.

test("test mode: sign up → add the webhook URL → invoice over REST → checkout → paid → signed invoice.paid → lists, stats, export, event log", async ({ page, baseURL }, testInfo) => {
  const receiver = await startReceiver();
  receiver.answer(200);
  try {
    await page.setViewportSize(DESKTOP);
    const merchant = await signUpThroughForm(page, "Journey Shop");

    // The dashboard in test mode: a test key, and the webhook URL as a test endpoint (its secret shown once).
    await page.goto("/dashboard/keys");
    await expect(page.getByRole("table", { name: /API keys/ })).toContainText("sk_live_");
    await flipTestMode(page);
    await expect(page.locator(".test-mode-banner")).toBeVisible();
    await page.getByLabel("Name (optional)").fill("journey server");
    await page.getByLabel("Mode").selectOption("test");
    await page.getByRole("button", { name: "Create key" }).click();
    const testKey = (await page.locator(".alert-warning code").textContent())!.trim();
    expect(testKey).toMatch(/^sk_test_/);

    await page.goto("/dashboard/webhooks");
    await page.getByLabel("Endpoint URL").fill(receiver.url);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const endpointSecret = (await page.getByRole("status").filter({ hasText: "shown this once" }).locator("code").textContent())!.trim();
    expect(endpointSecret).toMatch(/^whsec_/);
    await screenshot(page, testInfo, "journey-merchant-webhooks");

    // The merchant's server creates an invoice; the customer opens its checkout on a phone.
    const api = sdk(baseURL, testKey);
    const orderId = `order-${randomBytes(4).toString("hex")}`;
    const created = await api.POST("/invoice", { body: { amount: "24.50", currency: "EUR", orderId, description: "Two bags of coffee" } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const invoice = created.data!;
    const checkout = await page.context().newPage();
    await checkout.setViewportSize(PHONE);
    await checkout.goto(`/pay/${invoice.id}`);
    await expect(checkout.getByTestId("checkout-test-mode")).toBeVisible();
    await expect(checkout.getByTestId("checkout-status")).toContainText("Awaiting payment");
    await expectNoSidewaysScroll(checkout);
    await expectAccessible(checkout);

    // Paid (a simulated test payment: the checkout has no pay button of its own); the open page turns paid.
    const paid = await api.POST("/test/invoice/{id}/pay", { params: { path: { id: invoice.id } }, body: {} });
    expect(paid.response.status, JSON.stringify(paid.error)).toBe(201);
    const payment = paid.data!.payment;
    await expect(checkout.getByTestId("checkout-status")).toContainText("Paid", { timeout: 5_000 });
    await screenshot(checkout, testInfo, "journey-merchant-checkout-paid-390");
    await checkout.close();

    // invoice.paid arrives at the merchant's receiver, signed with the endpoint's secret.
    await expect.poll(() => receiver.received.filter((entry) => entry.body.includes('"invoice.paid"')).length, { timeout: 15_000 }).toBe(1);
    const webhooks = verifiedWebhooks(receiver.received, endpointSecret);
    const invoicePaid = webhooks.find((body) => body.type === "invoice.paid")!;
    expect(invoicePaid.data).toMatchObject({ id: invoice.id, status: "paid", orderId, amountPaid: "24.50" });
    const webhookId = receiver.received.find((entry) => entry.body.includes('"invoice.paid"'))!.headers["webhook-id"];

    // The payment in the dashboard (still in test mode): the list, the statistics, the CSV export.
    await page.goto("/dashboard/payments");
    await expect(page.getByRole("table")).toContainText(payment.externalId);
    const exported = await downloaded(page, () => page.getByRole("link", { name: /Export CSV/ }).click());
    expect(exported.text.split("\n")[0]).toContain("id");
    expect(exported.text).toContain(payment.id);
    await page.goto("/dashboard");
    await expect(page.locator(".stat", { hasText: "EUR" })).toContainText("24.50");

    // The event log: the invoice's events in the dashboard, its delivery delivered; the same event over REST.
    await page.goto(`/dashboard/invoices/${invoice.id}`);
    const history = page.getByRole("region", { name: "Events and webhook deliveries" });
    const paidEvent = history.locator("li", { hasText: "invoice.paid" }).first();
    await expect(paidEvent).toContainText("delivered");
    await expect(paidEvent).toContainText(receiver.url);
    await expectAccessible(page);
    await screenshot(page, testInfo, "journey-merchant-invoice");
    const events = await api.GET("/event", { params: { query: { type: "invoice.paid", subjectId: invoice.id } } });
    expect(events.data!.data.map((event) => event.id)).toEqual([webhookId]);

    // None of it is live data.
    const live = await sdk(baseURL, merchant.apiKey).GET("/payment", { params: { query: { limit: 10 } } });
    expect(live.data!.data.map((row) => row.id)).not.toContain(payment.id);
  } finally {
    await receiver.close();
  }
});

test("live: the webhook URL saved in the dashboard receives invoice.paid for an invoice paid over REST", async ({ page, baseURL }, testInfo) => {
  // The default endpoint must keep every event type when the URL is saved on the Webhooks page.
  const receiver = await startReceiver();
  receiver.answer(200);
  try {
    await page.setViewportSize(PHONE);
    const merchant = await signUpThroughForm(page, "Live Journey");
    await page.goto("/dashboard/webhooks");
    await page.getByLabel("Webhook URL").fill(receiver.url);
    await page.getByRole("button", { name: "Save endpoint" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await screenshot(page, testInfo, "journey-live-webhooks-390");

    const api = sdk(baseURL, merchant.apiKey);
    const invoice = (await api.POST("/invoice", { body: { amount: "10.00", currency: "EUR" } })).data!;
    const confirmed = await api.POST("/payment/confirm", {
      body: { externalId: `tx-${randomBytes(4).toString("hex")}`, amount: "10.00", currency: "EUR", invoiceId: invoice.id },
    });
    expect(confirmed.response.status, JSON.stringify(confirmed.error)).toBe(201);
    await expect.poll(() => receiver.received.filter((entry) => entry.body.includes('"invoice.paid"')).length, { timeout: 15_000 }).toBe(1);
    const types = verifiedWebhooks(receiver.received, merchant.webhookSecret).map((body) => body.type);
    expect(types).toEqual(expect.arrayContaining(["invoice.created", "payment.confirmed", "invoice.paid"]));
  } finally {
    await receiver.close();
  }
});
