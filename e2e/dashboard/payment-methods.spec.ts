import { expect, test } from "@playwright/test";
import { expectAccessible, screenshot, signUpThroughForm } from "./helpers";

const ETH = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

test("settings: payment methods are added, checked per field, saved in order and offered on the checkout page", async ({ page, request }, testInfo) => {
  test.slow();
  const merchant = await signUpThroughForm(page);
  await page.goto("/dashboard/settings");
  const form = page.getByRole("form", { name: "Payment methods" });
  await expect(form.getByText("No payment methods yet")).toBeVisible();

  await form.getByRole("button", { name: "Add bank transfer" }).click();
  await form.getByLabel("Account holder").fill("E2E Shop GmbH");
  // One digit off: the IBAN's check digits catch it.
  await form.getByLabel("IBAN").fill("DE89 3704 0044 0532 0130 01");
  await form.getByRole("button", { name: "Add crypto address" }).click();
  await form.getByLabel("Network").selectOption({ label: "Ethereum" });
  await form.getByLabel("Asset").selectOption("USDC");
  await form.getByLabel("Receiving address").fill(ETH.toLowerCase());
  await form.getByRole("button", { name: "Add pay link" }).click();
  await form.getByLabel("Button text").fill("Pay with PayPal");
  await form.getByLabel("Pay page URL (https)").fill("http://paypal.example/e2e");
  await form.getByRole("button", { name: "Save payment methods" }).click();

  await expect(form.getByTestId("payment-method-0").getByText("IBAN has wrong check digits: check every character")).toBeVisible();
  await expect(form.getByTestId("payment-method-2").getByText("must be an https URL")).toBeVisible();
  await expect(form.getByRole("alert")).toHaveText("Nothing was saved: 2 fields need a fix (see the messages under them).");
  await expect(form.getByLabel("IBAN")).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page);
  await page.setViewportSize({ width: 390, height: 900 });
  await screenshot(page, testInfo, "settings-payment-methods-errors-390");

  await form.getByLabel("IBAN").fill("DE89 3704 0044 0532 0130 00");
  await form.getByLabel("Pay page URL (https)").fill("https://paypal.example/e2e");
  // The link goes first: the order is the payer's.
  await form.getByRole("button", { name: "Move method 3 up" }).click();
  await form.getByRole("button", { name: "Move method 2 up" }).click();
  await form.getByRole("button", { name: "Save payment methods" }).click();
  await expect(form.getByRole("status")).toHaveText("Payment methods saved.");

  await page.reload();
  await expect(form.getByTestId("payment-method-0")).toContainText("Pay link");
  await expect(form.getByTestId("payment-method-1")).toContainText("Bank transfer");
  await expect(form.getByLabel("IBAN")).toHaveValue("DE89370400440532013000");
  // Stored in its EIP-55 checksum form.
  await expect(form.getByLabel("Receiving address")).toHaveValue(ETH);
  await expectAccessible(page);
  await screenshot(page, testInfo, "settings-payment-methods-390");
  await page.setViewportSize({ width: 1280, height: 900 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  await screenshot(page, testInfo, "settings-payment-methods-1280");

  const created = await request.post("/api/v1/invoice", { headers: { authorization: `Bearer ${merchant.apiKey}` }, data: { amount: "19.99", currency: "USDC" } });
  expect(created.status()).toBe(201);
  await page.goto(`/pay/${(await created.json()).id}`);
  const methods = page.getByTestId("checkout-methods").locator("summary");
  await expect(methods).toHaveText(["Pay with PayPal", "USDC on Ethereum"]);
});
