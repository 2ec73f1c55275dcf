import { expect, test } from "@playwright/test";
import { createPaymentOverRest, expectAccessible, screenshot, signUpThroughForm, uniqueId } from "./helpers";

test("invoices: create in the dashboard → paid over REST → detail with payments and events → overview counts; void another", async ({ page, request }, testInfo) => {
  // A long flow (sign-up, settings, two pages with axe and screenshots): three times the default timeout.
  test.slow();
  const merchant = await signUpThroughForm(page);
  await page.goto("/dashboard/settings");
  await page.getByLabel("Note for payers").fill("Pay to IBAN DE02 1203 0000 0000 2020 51");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByRole("status")).toContainText("Profile saved");

  await page.getByRole("link", { name: "Invoices", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Invoices" })).toBeVisible();
  const orderId = uniqueId("order");
  await page.getByLabel("Amount").fill("15.00");
  await page.getByLabel("Currency").fill("EUR");
  await page.getByLabel("Order id").first().fill(orderId);
  await page.getByLabel("Description").fill("Dashboard invoice");
  await page.getByRole("button", { name: "Create invoice" }).click();
  const created = page.getByRole("status").filter({ hasText: "created" });
  await expect(created).toBeVisible();
  const invoiceId = (await created.getByRole("link").first().textContent())!.trim();
  await expect(page.getByRole("table")).toContainText(orderId);
  await expectAccessible(page);
  await screenshot(page, testInfo, "invoices");

  await createPaymentOverRest(request, merchant.apiKey, { externalId: uniqueId("tx"), amount: "15.00", currency: "EUR", invoiceId });
  await page.getByRole("link", { name: invoiceId }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(invoiceId);
  await expect(page.locator(".details")).toContainText("paid");
  await expect(page.getByRole("table", { name: /Payments attached/ })).toContainText("€15.00");
  await expect(page.getByText("invoice.paid")).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, "invoice-detail");

  const other = await request.post("/api/v1/invoice", { headers: { authorization: `Bearer ${merchant.apiKey}` }, data: { amount: "1.00", currency: "EUR" } });
  const otherId = (await other.json()).id as string;
  await page.goto(`/dashboard/invoices/${otherId}`);
  await page.getByRole("button", { name: "Void invoice" }).click();
  await page.getByRole("button", { name: "Yes, void" }).click();
  await expect(page.locator(".details")).toContainText("void");

  await page.goto("/dashboard");
  const counts = page.getByRole("region", { name: "Invoices" });
  await expect(counts.locator(".stat", { hasText: "Paid share" })).toContainText("100.0 %");
  await expect(counts.locator(".stat", { hasText: /^Paid\d/ })).toContainText("1");
  await expectAccessible(page);
});

test("an invoice created while the list's first load is still on its way shows in the list", async ({ page }) => {
  await signUpThroughForm(page);
  // The list's first answer is read on the server at once but held until the invoice is created, as when a person
  // (or a browser's autofill) submits the form before the page's first load has arrived.
  let releaseFirstList!: () => void;
  const firstListHeld = new Promise<void>((resolve) => (releaseFirstList = resolve));
  let lists = 0;
  await page.route(/\/api\/trpc\/[^?]*invoices\.list/, async (route) => {
    if (++lists > 1) return route.continue();
    const answer = await route.fetch();
    await firstListHeld;
    // The page may have dropped that request meanwhile (it is stale): then there is nothing to answer.
    await route.fulfill({ response: answer }).catch(() => undefined);
  });
  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Invoices", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Invoices" })).toBeVisible();
  await expect.poll(() => lists).toBe(1);

  const orderId = uniqueId("order");
  await page.getByLabel("Amount").fill("15.00");
  await page.getByLabel("Currency").fill("EUR");
  await page.getByLabel("Order id").first().fill(orderId);
  const createAnswered = page.waitForResponse(/\/api\/trpc\/[^?]*invoices\.create/);
  await page.getByRole("button", { name: "Create invoice" }).click();
  await createAnswered;
  releaseFirstList();
  await expect(page.getByRole("status").filter({ hasText: "created" })).toBeVisible();
  await expect(page.getByRole("table")).toContainText(orderId);
  await expect(page.getByText("No invoices yet")).toHaveCount(0);
});
