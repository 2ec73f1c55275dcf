import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { verifyWebhook } from "@merchant-payments/sdk";
import { expectAccessible, screenshot } from "../dashboard/helpers";
import { startReceiver } from "../dashboard/receiver";
import { sdk } from "./sdk";

test("an invoice's checkout page turns paid by itself, and invoice.paid reaches the merchant signed", async ({ page, baseURL }, testInfo) => {
  const receiver = await startReceiver();
  receiver.answer(200);
  try {
    const suffix = randomBytes(4).toString("hex");
    const registered = await sdk(baseURL, undefined, { "x-forwarded-for": `10.${randomBytes(3).join(".")}` }).POST("/merchant/register", {
      body: { name: `Checkout Shop ${suffix}`, email: `checkout-${suffix}@e2e.example`, password: `e2e password ${suffix}`, webhookUrl: receiver.url },
    });
    expect(registered.response.status, JSON.stringify(registered.error)).toBe(201);
    const { merchant, apiKey, webhookSecret } = registered.data!;
    const mps = sdk(baseURL, apiKey);
    const instructions = "Transfer to IBAN DE02 1203 0000 0000 2020 51";
    const updated = await mps.PUT("/merchant/{id}", { params: { path: { id: merchant.id } }, body: { paymentInstructions: instructions } });
    expect(updated.response.status).toBe(200);

    const created = await mps.POST("/invoice", {
      body: { amount: "24.50", currency: "EUR", orderId: `order-${suffix}`, description: "Two bags of coffee", returnUrl: "https://shop.example/orders/1" },
    });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const invoice = created.data!;
    // The server runs on the e2e port with no PUBLIC_BASE_URL: checkout links name the port it serves.
    expect(invoice.checkoutUrl).toBe(`http://localhost:${new URL(baseURL!).port}/pay/${invoice.id}`);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/pay/${invoice.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay €24.50");
    await expect(page.getByText(merchant.name, { exact: true })).toBeVisible();
    await expect(page.getByText("Two bags of coffee")).toBeVisible();
    await expect(page.getByText(instructions)).toBeVisible();
    await expect(page.getByTestId("checkout-status")).toContainText("Awaiting payment");
    await expect(page.getByRole("timer")).toHaveText(/^\d+:\d{2}(:\d{2})?$/);
    // Nothing wider than the phone's screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await screenshot(page, testInfo, "checkout-open-390");

    const recorded = await mps.POST("/payment/confirm", {
      body: { externalId: `tx-${suffix}`, amount: "24.50", currency: "EUR", invoiceId: invoice.id },
    });
    expect(recorded.response.status, JSON.stringify(recorded.error)).toBe(201);
    const paidAt = Date.now();
    await expect(page.getByTestId("checkout-status")).toContainText("Paid", { timeout: 3_000 });
    expect(Date.now() - paidAt).toBeLessThan(3_000);
    await expect(page.getByTestId("checkout-remaining")).toHaveText("€0.00");
    const back = page.getByRole("link", { name: `Return to ${merchant.name}` });
    await expect(back).toHaveAttribute("href", "https://shop.example/orders/1");
    // Reachable with the keyboard alone.
    for (let i = 0; i < 15 && !(await back.evaluate((element) => element === document.activeElement)); i++) await page.keyboard.press("Tab");
    await expect(back).toBeFocused();
    await expectAccessible(page);
    await screenshot(page, testInfo, "checkout-paid-390");

    await expect.poll(() => receiver.received.filter((entry) => entry.body.includes('"invoice.paid"')).length, { timeout: 10_000 }).toBe(1);
    const delivery = receiver.received.find((entry) => entry.body.includes('"invoice.paid"'))!;
    const verified = verifyWebhook(delivery.body, delivery.headers as Record<string, string>, webhookSecret);
    expect(verified).toMatchObject({ type: "invoice.paid", data: { id: invoice.id, status: "paid", amountPaid: "24.50" } });
  } finally {
    await receiver.close();
  }
});

test("unknown and malformed invoice ids answer a plain 404 page", async ({ page }) => {
  for (const id of ["inv_01jd7z9e4f5g6h7j8k9m0n1p2q", "not-an-id"]) {
    const response = await page.goto(`/pay/${id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Invoice not found" })).toBeVisible();
  }
});
