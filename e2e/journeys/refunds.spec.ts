import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { DESKTOP, expectAccessible, expectNoSidewaysScroll, PHONE, screenshot, sdk, signUpThroughForm, startReceiver, verifiedWebhooks } from "./support";

// Money going back (docs/refunds.md): a confirmed payment refunded by half from the dashboard, refund.succeeded
// signed at the merchant's endpoint, the payment partial and the statistics net; then a claim link the payer
// fills in on a phone, and the merchant recording the refund as sent.

test("confirm → refund half from the dashboard → refund.succeeded signed → partial, net stats → claim link at 390 px → recorded as sent", async ({ page, baseURL }, testInfo) => {
  const receiver = await startReceiver();
  receiver.answer(200);
  try {
    await page.setViewportSize(DESKTOP);
    const merchant = await signUpThroughForm(page, "Refund Journey");
    await page.goto("/dashboard/webhooks");
    await page.getByLabel("Webhook URL").fill(receiver.url);
    await page.getByRole("button", { name: "Save endpoint" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();

    const api = sdk(baseURL, merchant.apiKey);
    const confirmed = await api.POST("/payment/confirm", { body: { externalId: `tx-${randomBytes(4).toString("hex")}`, amount: "40.00", currency: "EUR" } });
    expect(confirmed.response.status, JSON.stringify(confirmed.error)).toBe(201);
    const payment = confirmed.data!;

    // Three clicks: Refund… (the amount prefilled), Review, Confirm refund.
    await page.goto(`/dashboard/payments/${payment.id}`);
    await page.getByRole("button", { name: "Refund…" }).click();
    await expect(page.getByLabel("Amount (EUR)")).toHaveValue("40.00");
    await page.getByLabel("Amount (EUR)").fill("20.00");
    await page.getByRole("button", { name: "Review" }).click();
    await expect(page.getByTestId("refund-review")).toContainText("€20.00");
    await page.getByRole("button", { name: "Confirm refund" }).click();
    await expect(page.getByTestId("refund-done")).toContainText("succeeded");
    await expect(page.getByTestId("payment-refund-status")).toContainText("partly refunded");
    await expectAccessible(page);
    await screenshot(page, testInfo, "journey-refund-payment");

    // refund.succeeded arrives, signed with the merchant's secret.
    await expect.poll(() => receiver.received.filter((entry) => entry.body.includes('"refund.succeeded"')).length, { timeout: 15_000 }).toBe(1);
    const succeeded = verifiedWebhooks(receiver.received, merchant.webhookSecret).find((body) => body.type === "refund.succeeded")!;
    expect(succeeded.data).toMatchObject({ paymentId: payment.id, amount: "20.00", currency: "EUR", status: "succeeded" });
    const shown = await api.GET("/payment/{id}", { params: { path: { id: payment.id } } });
    expect(shown.data).toMatchObject({ amountRefunded: "20.00", refundStatus: "partial" });

    // The statistics net of refunds, in the dashboard and over REST.
    await page.goto("/dashboard");
    await expect(page.getByTestId("net-volume-EUR")).toContainText("€20.00");
    const stats = await api.GET("/merchant/{id}/stats", { params: { path: { id: merchant.merchantId } } });
    expect(stats.data!.netVolume).toEqual([{ currency: "EUR", amount: "20.00" }]);

    // A claim link for the rest; the payer opens it on a phone and gives their IBAN.
    const claim = await api.POST("/refund", { body: { paymentId: payment.id, claim: { instructions: "Give the IBAN to send €20.00 to." } } });
    expect(claim.response.status, JSON.stringify(claim.error)).toBe(201);
    const payer = await page.context().newPage();
    await payer.setViewportSize(PHONE);
    await payer.goto(claim.data!.claimUrl!);
    await expect(payer.getByRole("heading", { level: 1 })).toContainText("€20.00");
    await expectNoSidewaysScroll(payer);
    await expectAccessible(payer);
    await payer.getByLabel("Where should the money go?").fill("DE89 3704 0044 0532 0130 00");
    await payer.getByRole("button", { name: "Send my details" }).click();
    await expect(payer.getByTestId("claim-status")).toContainText("will send the refund to DE89 3704 0044 0532 0130 00");
    await screenshot(payer, testInfo, "journey-refund-claim-390");

    // The merchant sees the claim and records the refund as sent.
    await expect.poll(() => receiver.received.filter((entry) => entry.body.includes('"refund.claimed"')).length, { timeout: 15_000 }).toBe(1);
    await page.goto(`/dashboard/payments/${payment.id}`);
    await page.getByRole("button", { name: "Mark sent" }).click();
    await expect(page.getByTestId("payment-refund-status")).toContainText("fully refunded");
    await payer.reload();
    await expect(payer.getByTestId("claim-status")).toContainText("has sent your refund");
    await payer.close();
    const after = await api.GET("/refund/{id}", { params: { path: { id: claim.data!.id } } });
    expect(after.data).toMatchObject({ status: "succeeded", destination: "DE89 3704 0044 0532 0130 00" });
  } finally {
    await receiver.close();
  }
});
