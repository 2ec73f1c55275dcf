import { expect, test } from "@playwright/test";
import { DESKTOP, PHONE, screenshot, sdk, signUpThroughForm, uniqueId } from "./support";

// A double click on a form that creates something makes it once (docs/dashboard.md, "Forms that create").

test("a double click on Create key makes one key, shown once", async ({ page, baseURL }, testInfo) => {
  await page.setViewportSize(DESKTOP);
  const merchant = await signUpThroughForm(page, "Double Key");
  await page.goto("/dashboard/keys");
  const rows = page.getByRole("table", { name: /API keys/ }).locator("tbody tr");
  await expect(rows).toHaveCount(1); // the key made at sign-up
  await page.getByLabel("Name (optional)").fill("double click");
  await page.getByRole("button", { name: "Create key" }).dblclick();
  await expect(page.getByRole("button", { name: "Copy new api key" })).toBeVisible();
  const shown = (await page.locator(".alert-warning code").textContent())!.trim();
  await expect(rows).toHaveCount(2);
  await page.reload();
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole("table", { name: /API keys/ }).locator("tr", { hasText: "double click" })).toHaveCount(1);
  // The one key made is the one shown.
  expect((await sdk(baseURL, shown).GET("/merchant/{id}", { params: { path: { id: merchant.merchantId } } })).response.status).toBe(200);
  await screenshot(page, testInfo, "double-click-create-key");
});

test("a double click on Create invoice makes one invoice and links it, with no 'already exists'", async ({ page, baseURL }, testInfo) => {
  await page.setViewportSize(PHONE);
  const merchant = await signUpThroughForm(page, "Double Invoice");
  await page.goto("/dashboard/invoices");
  const orderId = uniqueId("order");
  const form = page.getByRole("form", { name: "New invoice" });
  await form.getByLabel("Amount").fill("19.99");
  await form.getByLabel("Currency").fill("EUR");
  await form.getByLabel("Order id").fill(orderId);
  await form.getByRole("button", { name: "Create invoice" }).dblclick();
  const created = page.getByRole("status").filter({ hasText: "created" });
  await expect(created).toBeVisible();
  await expect(page.locator(".alert-error")).toHaveCount(0);
  await created.getByRole("link", { name: /^inv_/ }).click();
  await expect(page).toHaveURL(/\/dashboard\/invoices\/inv_/);
  const invoices = await sdk(baseURL, merchant.apiKey).GET("/invoice", { params: { query: { orderId } } });
  expect(invoices.data!.data).toHaveLength(1);
  await screenshot(page, testInfo, "double-click-create-invoice-390");
});
