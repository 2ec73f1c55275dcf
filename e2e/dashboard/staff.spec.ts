import { expect, test } from "@playwright/test";
import { createPaymentOverRest, expectAccessible, screenshot, signIn, signUpThroughForm, STAFF, uniqueId } from "./helpers";
import { startReceiver } from "./receiver";

test("staff find a payment across merchants, reconcile it with a note, and see it in the audit log", async ({ page, request, browser }, testInfo) => {
  const merchantPage = await browser.newPage();
  const merchant = await signUpThroughForm(merchantPage, "Reconcile");
  await merchantPage.close();
  const reference = uniqueId("ref");
  const payment = await createPaymentOverRest(request, merchant.apiKey, { externalId: uniqueId("tx"), amount: "250.00", currency: "EUR", reference });

  await signIn(page, STAFF.email, STAFF.password);
  await expect(page.getByRole("heading", { level: 1, name: "Payment search" })).toBeVisible();
  await page.getByLabel("Payment id, external id or reference").fill(reference);
  await page.getByRole("button", { name: "Search" }).click();
  // Merchants by name and email, not by id.
  await expect(page.getByRole("table")).toContainText(merchant.name);
  await expect(page.getByRole("table")).toContainText(merchant.email);
  await expect(page.getByRole("status").filter({ hasText: "1 payment found" })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, "staff-search-results");

  await page.getByRole("link", { name: payment.id }).click();
  await expect(page.locator(".details")).toContainText("€250.00");
  await page.getByLabel("Note").fill("Matched bank statement line 42");
  await page.getByRole("button", { name: "Mark reconciled" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Marked reconciled." })).toBeVisible();
  await expect(page.locator(".details")).toContainText("Matched bank statement line 42");
  await expectAccessible(page);
  await screenshot(page, testInfo, "staff-payment");

  await page.getByRole("link", { name: merchant.name }).click();
  await expect(page.getByRole("heading", { name: "Profile" })).toBeVisible();
  await expect(page.locator(".details").first()).toContainText(merchant.email);
  await expectAccessible(page);
  await screenshot(page, testInfo, "staff-merchant");

  await page.getByRole("link", { name: "audit log", exact: true }).click();
  const table = page.getByRole("table");
  await expect(table).toContainText("payment.reconciled");
  await expect(table).toContainText("Matched bank statement line 42");
  await expect(table).toContainText("staff.merchant_viewed");
  await expect(table).toContainText("payment.viewed");
  await expect(table).toContainText(STAFF.email);
  await expectAccessible(page);
  await screenshot(page, testInfo, "staff-audit");

  // The merchant sees the reconciliation on their own payment.
  await page.context().clearCookies();
  await signIn(page, merchant.email, merchant.password);
  await page.goto(`/dashboard/payments/${payment.id}`);
  await expect(page.locator(".details")).toContainText(/Reconciled\s*20\d\d-/);
});

test("staff retry a merchant's failed delivery on their behalf", async ({ page, request, browser }, testInfo) => {
  const receiver = await startReceiver();
  try {
    const merchantPage = await browser.newPage();
    const merchant = await signUpThroughForm(merchantPage, "Retry");
    await merchantPage.close();
    const update = await request.put(`/api/v1/merchant/${merchant.merchantId}`, {
      headers: { authorization: `Bearer ${merchant.apiKey}` },
      data: { webhookUrl: receiver.url },
    });
    expect(update.status(), await update.text()).toBe(200);
    await createPaymentOverRest(request, merchant.apiKey, { externalId: uniqueId("tx"), amount: "7.00", currency: "USD" });

    await signIn(page, STAFF.email, STAFF.password);
    await page.goto(`/dashboard/staff/merchants/${merchant.merchantId}`);
    const failed = page.getByRole("region", { name: "Failed webhook deliveries" });
    await expect(async () => {
      await page.reload();
      await expect(failed.getByRole("button", { name: /Retry delivery/ })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 30_000 });

    receiver.answer(200);
    await failed.getByRole("button", { name: /Retry delivery/ }).click();
    // The region also holds the copy buttons' (empty) live status; the retry's outcome is the one that speaks.
    await expect(failed.getByRole("status").filter({ hasText: "queued for another attempt" })).toBeVisible();
    await expect(async () => {
      await page.reload();
      await expect(failed).toContainText("This merchant has no failed deliveries.", { timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    expect(receiver.received.at(-1)!.headers["webhook-id"]).toMatch(/^evt_/);
    await screenshot(page, testInfo, "staff-merchant-after-retry");

    await page.goto(`/dashboard/staff/audit?merchantId=${merchant.merchantId}`);
    await expect(page.getByRole("table")).toContainText("webhook_delivery.retried");
  } finally {
    await receiver.close();
  }
});
