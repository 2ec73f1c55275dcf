import { expect, test } from "@playwright/test";
import { createPaymentOverRest, expectAccessible, flipTestMode, screenshot, signUpThroughForm, uniqueId } from "./helpers";

test("test mode: make a test key, record a test payment with it, see it only with the switch on", async ({ page, request }, testInfo) => {
  const merchant = await signUpThroughForm(page);

  // A test key from the Keys page.
  await page.goto("/dashboard/keys");
  // The list has loaded (the key made at sign-up): the new key's refetch is not raced by the first load.
  await expect(page.getByRole("table", { name: /API keys/ })).toContainText("sk_live_");
  await page.getByLabel("Name (optional)").fill("laptop");
  await page.getByLabel("Mode").selectOption("test");
  await page.getByRole("button", { name: "Create key" }).click();
  // Shown once, in full, with a copy button.
  await expect(page.getByRole("button", { name: "Copy new api key" })).toBeVisible();
  const testKey = (await page.locator(".alert-warning code").textContent())!.trim();
  expect(testKey).toMatch(/^sk_test_[0-9A-Za-z]{49}$/);
  await expect(page.getByRole("table", { name: /API keys/ }).locator("tr", { hasText: "laptop" })).toContainText(`sk_test_…${testKey.slice(-4)}`);

  // One payment in each mode, as the merchant's server would record them.
  const liveId = uniqueId("live");
  const testId = uniqueId("test");
  await createPaymentOverRest(request, merchant.apiKey, { externalId: liveId, amount: "19.99", currency: "USD" });
  await createPaymentOverRest(request, testKey, { externalId: testId, amount: "7.00", currency: "USD" });

  // Switch off (live): the live payment only, no banner.
  await page.goto("/dashboard/payments");
  const toggle = page.getByRole("switch", { name: "Test mode" });
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  await expect(page.getByRole("table")).toContainText(liveId);
  await expect(page.getByRole("table")).not.toContainText(testId);
  await expect(page.locator(".test-mode-banner")).toHaveCount(0);

  // Switch on: the test payment only, the banner on every page, the overview counting test data.
  await toggle.click();
  await expect(page.getByRole("switch", { name: "Test mode" })).toHaveAttribute("aria-checked", "true");
  await expect(page.locator(".test-mode-banner")).toContainText("Test mode");
  await expect(page.getByRole("table")).toContainText(testId);
  await expect(page.getByRole("table")).not.toContainText(liveId);
  await expectAccessible(page);
  await screenshot(page, testInfo, "payments-test-mode");
  await page.goto("/dashboard");
  await expect(page.locator(".test-mode-banner")).toBeVisible();
  await expect(page.locator(".stat", { hasText: "USD" })).toContainText("7.00");
  await expect(page.locator(".stat", { hasText: "USD" })).not.toContainText("19.99");

  // The switch stays on across pages and reloads until turned off.
  await page.goto("/dashboard/payments");
  await expect(page.getByRole("table")).toContainText(testId);
  await flipTestMode(page);
  await expect(page.getByRole("switch", { name: "Test mode" })).toHaveAttribute("aria-checked", "false");
  await expect(page.locator(".test-mode-banner")).toHaveCount(0);
  await expect(page.getByRole("table")).toContainText(liveId);
  await expect(page.getByRole("table")).not.toContainText(testId);
});
