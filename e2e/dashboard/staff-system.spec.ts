import { expect, test } from "@playwright/test";
import { createPaymentOverRest, expectAccessible, screenshot, signIn, signUpThroughForm, STAFF, uniqueId } from "./helpers";
import { startReceiver } from "./receiver";

test("staff see the delivery queue, a merchant's failing endpoint by name, and the pool, on a phone too", async ({ page, request, browser }, testInfo) => {
  const receiver = await startReceiver(); // answers 500
  try {
    const merchantPage = await browser.newPage();
    const merchant = await signUpThroughForm(merchantPage, "System");
    // The business name the form was given: "System <the suffix of the sign-up email>".
    const merchantName = `System ${/^owner-(\w+)@/.exec(merchant.email)![1]}`;
    // A merchant is kept out of the staff console.
    await merchantPage.goto("/dashboard/staff/system");
    await expect(merchantPage.getByRole("heading", { level: 1, name: "System" })).toHaveCount(0);
    await expect(merchantPage).not.toHaveURL(/\/dashboard\/staff\/system/);
    await merchantPage.close();
    const update = await request.put(`/api/v1/merchant/${merchant.merchantId}`, {
      headers: { authorization: `Bearer ${merchant.apiKey}` },
      data: { webhookUrl: receiver.url },
    });
    expect(update.status(), await update.text()).toBe(200);
    await createPaymentOverRest(request, merchant.apiKey, { externalId: uniqueId("tx"), amount: "4.00", currency: "EUR" });
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBeGreaterThan(0);

    await signIn(page, STAFF.email, STAFF.password);
    await page.getByRole("link", { name: "System" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "System" })).toBeVisible();
    const failing = page.getByRole("region", { name: "Endpoints with failures", exact: true });
    await expect(async () => {
      await page.reload();
      await expect(failing.getByRole("link", { name: merchantName })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await expect(failing).toContainText(receiver.url);
    await expect(page.getByRole("region", { name: "Slowest endpoints, last hour", exact: true })).toContainText(receiver.url);
    await expect(page.getByRole("figure", { name: /queue depth/ })).toBeVisible();
    await expect(page.getByRole("figure", { name: /attempts per minute/ })).toBeVisible();
    await expect(page.getByText("Embedded database: one in-process instance, no connection pool.")).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, testInfo, "staff-system");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(failing).toContainText(receiver.url);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `the System page scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
    await screenshot(page, testInfo, "staff-system-390");
  } finally {
    await receiver.close();
  }
});
