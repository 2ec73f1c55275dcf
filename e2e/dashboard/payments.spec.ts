import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { createPaymentOverRest, expectAccessible, screenshot, signUpThroughForm, uniqueId } from "./helpers";

test("sign-up → credentials → a payment over REST → found in the table → opened", async ({ page, request }, testInfo) => {
  const merchant = await signUpThroughForm(page);
  const externalId = uniqueId("tx");
  const payment = await createPaymentOverRest(request, merchant.apiKey, {
    externalId,
    amount: "19.99",
    currency: "USD",
    reference: "order-1001",
    metadata: { orderId: 1001 },
  });
  await createPaymentOverRest(request, merchant.apiKey, { externalId: uniqueId("tx"), amount: "0.5", currency: "EUR", status: "pending" });

  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await expect(page.locator(".stat", { hasText: "Payments" }).first()).toContainText("2");
  await expect(page.locator(".stat", { hasText: "USD" })).toContainText("19.99");
  await expectAccessible(page);
  await screenshot(page, testInfo, "overview");

  await page.getByRole("link", { name: "Payments", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payments" })).toBeVisible();
  await expect(page.getByRole("table")).toContainText(externalId);
  await expectAccessible(page);
  await screenshot(page, testInfo, "payments");

  // Search by a part of the external id; the search is in the URL, so a reload keeps it, and Back undoes it.
  await page.getByRole("textbox", { name: "Search" }).fill(externalId.slice(3).toUpperCase());
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/[?&]q=/);
  await expect(page.getByRole("table").locator("tbody tr")).toHaveCount(1);
  await expect(page.getByRole("status").filter({ hasText: "1 payment match" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("textbox", { name: "Search" })).toHaveValue(externalId.slice(3).toUpperCase());
  await expect(page.getByRole("table").locator("tbody tr")).toHaveCount(1);

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: /Export CSV/ }).click();
  const csv = readFileSync(await (await download).path(), "utf8");
  expect(csv.split("\n")[0]).toContain("id,externalId,amount,currency,status");
  expect(csv).toContain(`${payment.id},${externalId},19.99,USD,confirmed`);
  expect(csv).not.toContain("EUR");

  await page.getByRole("link", { name: payment.id }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/payments/${payment.id}$`));
  await expect(page.getByRole("heading", { name: "Payment", exact: true })).toBeVisible();
  await expect(page.locator(".details")).toContainText("$19.99");
  await expect(page.locator(".details")).toContainText("order-1001");
  await expect(page.getByRole("region", { name: "Events and webhook deliveries" })).toContainText("payment.confirmed");
  await expectAccessible(page);
  await screenshot(page, testInfo, "payment-detail");

  // The merchant reconciles their own payment with a note; the list's reconciled filter then finds it.
  await page.getByLabel("Note").fill("Bank statement line 12");
  await page.getByRole("button", { name: "Mark reconciled" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Marked reconciled." })).toBeVisible();
  await expect(page.locator(".details")).toContainText("Bank statement line 12");
  await page.goto("/dashboard/payments?reconciled=true");
  await expect(page.getByRole("table").locator("tbody tr")).toHaveCount(1);
  await expect(page.getByRole("table")).toContainText(externalId);
});

test("a merchant cannot see another merchant's payment by URL", async ({ page, request, browser }) => {
  const owner = await signUpThroughForm(page, "Owner");
  const secret = await createPaymentOverRest(request, owner.apiKey, { externalId: uniqueId("secret"), amount: "123.45", currency: "USD" });

  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  const intruder = await signUpThroughForm(other, "Intruder");
  await other.goto("/dashboard");
  await expect(other.getByText(`Signed in as ${intruder.email}`)).toBeVisible();

  await other.goto(`/dashboard/payments/${secret.id}`);
  await expect(other.getByRole("alert").filter({ hasText: "No such payment" })).toBeVisible();
  await expect(other.locator("body")).not.toContainText("123.45");
  await expect(other.locator("body")).not.toContainText(secret.externalId);

  // The API behind the page answers the same 404 as for an id that does not exist.
  const origin = new URL(other.url()).origin;
  const input = encodeURIComponent(JSON.stringify({ json: { id: secret.id } }));
  const response = await other.request.get(`/api/trpc/payments.get?input=${input}`, { headers: { origin } });
  expect(response.status()).toBe(404);
  expect(await response.text()).not.toContain("123.45");
  // And their CSV export holds only their own payments.
  const csv = await other.request.get("/dashboard/payments/export");
  expect(csv.status()).toBe(200);
  expect(await csv.text()).not.toContain(secret.id);
  await otherContext.close();

  // The owner, still signed in, sees it.
  await page.goto(`/dashboard/payments/${secret.id}`);
  await expect(page.locator(".details")).toContainText("$123.45");
});
