import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { screenshot, sdk, signUpThroughForm, startReceiver, verifiedWebhooks } from "./support";

// A test send is only a test: failing, and failing again on "Retry all", it must never touch the merchant's real
// endpoint, whose live events keep arriving (docs/webhooks.md: test sends count towards no endpoint's health).
test("a test send to a URL answering 410 fails → Retry all → the merchant's live events still arrive", async ({ page, baseURL }, testInfo) => {
  const live = await startReceiver();
  live.answer(200);
  const gone = await startReceiver();
  gone.answer(410);
  try {
    const merchant = await signUpThroughForm(page, "Retry Journey");
    await page.goto("/dashboard/webhooks");
    await page.getByLabel("Webhook URL").fill(live.url);
    await page.getByRole("button", { name: "Save endpoint" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();

    // The developer tries another URL with a test send; it answers 410 Gone.
    const api = sdk(baseURL, merchant.apiKey);
    const sent = await api.POST("/webhook/test", { body: { url: gone.url } });
    expect(sent.response.status, JSON.stringify(sent.error)).toBe(200);
    expect(sent.data).toMatchObject({ delivered: false, statusCode: 410 });

    // Retry all, from the dashboard.
    await page.goto("/dashboard/webhooks?status=failed");
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole("table", { name: /Failed webhook deliveries/ })).toContainText("webhook.test", { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await page.getByRole("button", { name: "Retry all…" }).click();
    await page.getByRole("button", { name: /^Retry \d+$/ }).click();
    await expect.poll(() => gone.received.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    await screenshot(page, testInfo, "journey-retry-all");

    // A live event afterwards still reaches the real endpoint, which is still enabled.
    const confirmed = await api.POST("/payment/confirm", { body: { externalId: `tx-${randomBytes(4).toString("hex")}`, amount: "3.00", currency: "EUR" } });
    expect(confirmed.response.status, JSON.stringify(confirmed.error)).toBe(201);
    await expect
      .poll(() => verifiedWebhooks(live.received, merchant.webhookSecret).filter((body) => body.type === "payment.confirmed").length, { timeout: 15_000 })
      .toBe(1);
    await page.goto("/dashboard/webhooks");
    await expect(page.getByRole("alert").filter({ hasText: "is disabled" })).toHaveCount(0);
  } finally {
    await live.close();
    await gone.close();
  }
});
