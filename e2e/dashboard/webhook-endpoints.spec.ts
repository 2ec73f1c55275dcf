import { expect, test, type Page } from "@playwright/test";
import { createPaymentOverRest, expectAccessible, flipTestMode, screenshot, signUpThroughForm, uniqueId } from "./helpers";
import { startReceiver } from "./receiver";

/** A `datetime-local` value some minutes ago (the browser and this process share the machine's clock and zone). */
function minutesAgo(minutes: number): string {
  const at = new Date(Date.now() - minutes * 60_000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

test("a second endpoint: added, tested, broken, seen in the log, replayed", async ({ page, request }, testInfo) => {
  const receiver = await startReceiver();
  receiver.answer(200);
  try {
    const merchant = await signUpThroughForm(page);
    await page.goto("/dashboard/webhooks");

    // Add it: its own secret is shown once.
    await page.getByLabel("Endpoint URL").fill(receiver.url);
    await page.getByLabel("Description").first().fill("Second endpoint");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByText("shown this once")).toBeVisible();
    await expect(page.locator("code.secret")).toContainText("whsec_");
    const item = page.getByRole("listitem", { name: "Endpoint Second endpoint" });
    await expect(item).toContainText(receiver.url);

    // A test event reaches it.
    await item.getByRole("button", { name: "Send test event" }).click();
    await expect(item.getByText("Test event delivered: HTTP 200")).toBeVisible();
    expect(receiver.received.at(-1)!.body).toContain("webhook.test");

    // Broken: a payment's delivery to it fails and shows in the log, filtered to failures (filters live in the URL).
    receiver.answer(500);
    const payment = await createPaymentOverRest(request, merchant.apiKey, { externalId: uniqueId("tx"), amount: "7.00", currency: "EUR" });
    await page.goto("/dashboard/webhooks?status=failed");
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole("table", { name: /Failed webhook deliveries/ })).toContainText("payment.confirmed", { timeout: 1000 });
      // The endpoint's counts are a query of their own: on the load that first lists the failure they may have been
      // read a moment before its last attempt was recorded ("1 pending"), and the page does not read them again.
      await expect(page.getByRole("listitem", { name: "Endpoint Second endpoint" })).toContainText(/1 failed/, { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByLabel("Status")).toHaveValue("failed");
    await expectAccessible(page);
    await screenshot(page, testInfo, "webhook-endpoints-failed");

    // Fixed, then "Replay since…": the payment's event goes to it again, with the same webhook-id.
    receiver.answer(200);
    const firstId = receiver.received.find((received) => received.body.includes(payment.id))!.headers["webhook-id"];
    const fixed = page.getByRole("listitem", { name: "Endpoint Second endpoint" });
    await fixed.getByLabel("Replay events since").fill(minutesAgo(10));
    await fixed.getByRole("button", { name: "Replay since…" }).click();
    await expect(fixed.getByText("1 events are queued for this endpoint again.")).toBeVisible();
    await expect(async () => {
      const delivered = receiver.received.filter((received) => received.body.includes(payment.id));
      expect(delivered.at(-1)!.headers["webhook-id"]).toBe(firstId);
      expect(delivered.length).toBeGreaterThanOrEqual(4); // three failed attempts, then the replay
    }).toPass({ timeout: 20_000 });
    await page.getByLabel("Status").selectOption("delivered");
    await expect(page.getByRole("table", { name: /Webhook deliveries/ })).toContainText("payment.confirmed");

    // Rotating and deleting ask first, in place (src/components/ui/confirm-action.tsx): Cancel changes nothing.
    const second = page.getByRole("listitem", { name: "Endpoint Second endpoint" });
    await second.getByRole("button", { name: "Rotate secret…" }).click();
    await second.getByRole("button", { name: "Yes, rotate" }).click();
    await expect(second.getByText("New secret, shown this once")).toBeVisible();
    await expect(second.getByRole("button", { name: "Yes, rotate" })).toBeHidden();
    await second.getByRole("button", { name: "Delete…" }).click();
    await expect(second.getByRole("button", { name: "Yes, delete" })).toBeFocused();
    await second.getByRole("button", { name: "Cancel" }).click();
    await expect(second.getByRole("button", { name: "Delete…" })).toBeVisible();
    await second.getByRole("button", { name: "Delete…" }).click();
    await second.getByRole("button", { name: "Yes, delete" }).click();
    await expect(second).toBeHidden();

    // A phone's width: nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/dashboard/webhooks");
    await expect(page.getByRole("heading", { name: "Endpoints" })).toBeVisible();
    expect(await sidewaysOverflow(page)).toEqual({ by: 0, wide: [] });
  } finally {
    await receiver.close();
  }
});

/** How far the page scrolls sideways, and the outermost elements that stick out (named, so a failure says what). */
async function sidewaysOverflow(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll("body *")]
      .filter((element) => element.getBoundingClientRect().right > width + 1 && !element.parentElement?.closest(".table-wrap"))
      .filter((element) => !(element.parentElement && element.parentElement.getBoundingClientRect().right > width + 1))
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}#${element.id}`);
    return { by: document.documentElement.scrollWidth - width, wide };
  });
}

for (const { name, width } of [
  { name: "phone", width: 390 },
  { name: "desktop", width: 1280 },
]) {
  test(`the webhook URL form (${name}): saving a URL keeps every event type, the list shows it at once, test mode shows test endpoints only`, async ({ page, request }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    const receiver = await startReceiver();
    receiver.answer(200);
    try {
      const merchant = await signUpThroughForm(page);
      await page.goto("/dashboard/webhooks");
      const defaultItem = page.getByRole("listitem", { name: "Endpoint Default endpoint (no URL)" });
      await expect(defaultItem).toContainText("No URL");

      // Save a URL only: the endpoint list shows it without a reload, still subscribed to every event type.
      await page.getByLabel("Webhook URL").fill(receiver.url);
      await page.getByRole("button", { name: "Save endpoint" }).click();
      await expect(page.getByText("Saved.")).toBeVisible();
      const saved = page.getByRole("listitem", { name: `Endpoint ${receiver.url}` });
      await expect(saved).toContainText(receiver.url);
      await expect(saved).not.toContainText("No URL");
      await expect(saved).toContainText("invoice.paid");

      // So a paid invoice's invoice.paid reaches it.
      const auth = { authorization: `Bearer ${merchant.apiKey}` };
      const invoice = await (await request.post("/api/v1/invoice", { headers: auth, data: { amount: "12.00", currency: "EUR" } })).json();
      await createPaymentOverRest(request, merchant.apiKey, { externalId: uniqueId("inv-pay"), amount: "12.00", currency: "EUR", invoiceId: invoice.id });
      await expect(async () => {
        const types = receiver.received.map((received) => (JSON.parse(received.body) as { type: string; data: { id?: string } }));
        expect(types).toContainEqual(expect.objectContaining({ type: "invoice.paid", data: expect.objectContaining({ id: invoice.id }) }));
      }).toPass({ timeout: 20_000 });
      expect(await sidewaysOverflow(page)).toEqual({ by: 0, wide: [] });

      // Test mode: the live URL and secret are not on the page; test endpoints are.
      await flipTestMode(page);
      await expect(page.getByRole("switch", { name: "Test mode" })).toHaveAttribute("aria-checked", "true");
      await expect(page.getByRole("heading", { name: "Test endpoints" })).toBeVisible();
      await expect(page.getByText("No endpoints yet.")).toBeVisible();
      await expect(page.getByLabel("Webhook URL")).toHaveCount(0);
      await expect(page.getByRole("heading", { name: "Signing secret" })).toHaveCount(0);
      await expect(page.locator("main")).not.toContainText(receiver.url);
      await expectAccessible(page);
      expect(await sidewaysOverflow(page)).toEqual({ by: 0, wide: [] });
      await screenshot(page, testInfo, `webhooks-test-mode-${name}`);
    } finally {
      await receiver.close();
    }
  });
}
