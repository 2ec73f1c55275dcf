import { expect, test } from "@playwright/test";
import { createPaymentOverRest, expectAccessible, screenshot, signUpThroughForm, uniqueId } from "./helpers";
import { startReceiver } from "./receiver";

test("a failed delivery is retried from the dashboard and delivered", async ({ page, request }, testInfo) => {
  const receiver = await startReceiver();
  try {
    const merchant = await signUpThroughForm(page);
    await page.goto("/dashboard/webhooks");
    await page.getByLabel("Webhook URL").fill(receiver.url);
    await page.getByRole("button", { name: "Save endpoint" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();

    // The secret is masked until a deliberate click.
    await expect(page.getByText(merchant.webhookSecret)).toHaveCount(0);
    await page.getByRole("button", { name: "Reveal webhook secret" }).click();
    await expect(page.getByText(merchant.webhookSecret)).toBeVisible();
    await page.getByRole("button", { name: "Hide" }).click();

    const payment = await createPaymentOverRest(request, merchant.apiKey, { externalId: uniqueId("tx"), amount: "5.00", currency: "USD" });
    // The receiver answers 500 to every attempt of the (test-short) schedule: the delivery ends failed.
    // The delivery log shows every status; the filter (kept in the URL) narrows it to the failed ones.
    await page.getByLabel("Status").selectOption("failed");
    await expect(page).toHaveURL(/status=failed/);
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole("table", { name: /Failed webhook deliveries/ })).toContainText("payment.confirmed", { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    expect(receiver.received.length).toBeGreaterThanOrEqual(1);
    expect(receiver.received[0]!.body).toContain(payment.id);
    await expectAccessible(page);
    await screenshot(page, testInfo, "webhooks");

    // Retry all starts with a dry-run count.
    await page.getByRole("button", { name: "Retry all…" }).click();
    await expect(page.getByText("1 failed delivery will be attempted again.")).toBeVisible();
    await page.getByRole("button", { name: "Cancel" }).click();

    const row = page.getByRole("table", { name: /Failed webhook deliveries/ }).locator("tbody tr").first();
    const deliveryId = (await row.getByRole("link").textContent())!.trim();
    await row.getByRole("link").click();
    await expect(page.getByRole("heading", { name: "Attempts" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Attempts" })).toContainText("HTTP 500");
    await page.getByRole("button", { name: "Copy as curl…" }).click();
    await expect(page.locator("pre.code").first()).toContainText(`curl -X POST '${receiver.url}'`);
    await expect(page.locator("pre.code").first()).toContainText("webhook-signature: v1,");
    await expectAccessible(page);
    await screenshot(page, testInfo, "delivery-failed");

    receiver.answer(200);
    await page.getByRole("button", { name: "Retry now" }).click();
    await expect(page.locator(".details .badge")).toHaveText("delivered", { timeout: 20_000 });
    await expect(page.getByRole("region", { name: "Attempts" })).toContainText("HTTP 200");
    await screenshot(page, testInfo, "delivery-delivered");

    await page.goto("/dashboard/webhooks?status=failed");
    await expect(page.getByText("No failed deliveries.")).toBeVisible();
    expect(deliveryId).toMatch(/^whd_/);
  } finally {
    await receiver.close();
  }
});
