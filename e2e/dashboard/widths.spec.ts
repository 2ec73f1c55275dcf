import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { createPaymentOverRest, screenshot, signIn, signUpThroughForm, STAFF, uniqueId } from "./helpers";
import { startReceiver } from "./receiver";

/**
 * Every page at a desktop width and a phone width: the page never scrolls sideways, and no button or
 * link-button has text cut off. Pages are listed once, in PAGES, as functions of the ids the setup creates,
 * so a new page is one line.
 */
interface Ids {
  merchantId: string;
  paymentId: string;
  invoiceId: string;
  deliveryId: string;
}

const WIDTHS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

type Who = "merchant" | "staff" | "anyone";
const PAGES: { who: Who; name: string; path: (ids: Ids) => string }[] = [
  { who: "anyone", name: "login", path: () => "/login" },
  { who: "anyone", name: "sign-up", path: () => "/sign-up" },
  { who: "anyone", name: "forgot-password", path: () => "/forgot-password" },
  { who: "anyone", name: "reset-password", path: () => "/reset-password?token=not-a-real-token" },
  { who: "anyone", name: "docs", path: () => "/docs" },
  { who: "anyone", name: "docs-errors", path: () => "/docs/errors" },
  { who: "anyone", name: "checkout", path: (ids) => `/pay/${ids.invoiceId}` },
  { who: "merchant", name: "overview", path: () => "/dashboard" },
  { who: "merchant", name: "invoices", path: () => "/dashboard/invoices" },
  { who: "merchant", name: "invoice", path: (ids) => `/dashboard/invoices/${ids.invoiceId}` },
  { who: "merchant", name: "payments", path: () => "/dashboard/payments" },
  { who: "merchant", name: "payment", path: (ids) => `/dashboard/payments/${ids.paymentId}` },
  { who: "merchant", name: "reconciliation", path: () => "/dashboard/reconciliation" },
  { who: "merchant", name: "webhooks", path: () => "/dashboard/webhooks" },
  { who: "merchant", name: "delivery", path: (ids) => `/dashboard/webhooks/deliveries/${ids.deliveryId}` },
  { who: "merchant", name: "keys", path: () => "/dashboard/keys" },
  { who: "merchant", name: "settings", path: () => "/dashboard/settings" },
  { who: "merchant", name: "account", path: () => "/dashboard/account" },
  { who: "merchant", name: "not-found", path: () => "/dashboard/no-such-page" },
  { who: "staff", name: "staff-search", path: (ids) => `/dashboard/staff?q=${ids.paymentId}` },
  { who: "staff", name: "staff-merchants", path: () => "/dashboard/staff/merchants" },
  { who: "staff", name: "staff-merchant", path: (ids) => `/dashboard/staff/merchants/${ids.merchantId}` },
  { who: "staff", name: "staff-merchant-reconciliation", path: (ids) => `/dashboard/staff/merchants/${ids.merchantId}/reconciliation` },
  { who: "staff", name: "staff-payment", path: (ids) => `/dashboard/staff/payments/${ids.paymentId}` },
  { who: "staff", name: "staff-audit", path: () => "/dashboard/staff/audit" },
  { who: "staff", name: "staff-account", path: () => "/dashboard/staff/account" },
];

/** What overflows: the page's width against the viewport's, and every button whose text is cut. */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const clipped: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>("button, a.btn, [role=button]")) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || element.closest("[hidden], .visually-hidden")) continue;
      // The API reference's own widgets (Scalar, a third-party renderer) label icon buttons with screen-reader-only
      // text that counts in scrollWidth without being shown; the page's sideways-scroll check still covers /docs.
      if (element.closest("#scalar-reference")) continue;
      if (element.scrollWidth > element.clientWidth + 1) clipped.push((element.textContent ?? "").trim() || element.outerHTML.slice(0, 80));
    }
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, clipped };
  });
}

async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
  await expect(page.locator("[aria-busy=true], .state:text-matches('^Loading')")).toHaveCount(0);
}

async function checkPages(page: Page, testInfo: TestInfo, who: Who, ids: Ids) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width: width.width, height: width.height });
    for (const entry of PAGES.filter((candidate) => candidate.who === who)) {
      await test.step(`${entry.name} at ${width.width} px`, async () => {
        await page.goto(entry.path(ids));
        await settle(page);
        await screenshot(page, testInfo, `width-${width.width}-${entry.name}`);
        const found = await overflow(page);
        expect.soft(found.scrollWidth, `${entry.name} at ${width.width} px scrolls sideways`).toBeLessThanOrEqual(found.innerWidth);
        expect.soft(found.clipped, `${entry.name} at ${width.width} px cuts button text`).toEqual([]);
      });
    }
  }
}

test("every page fits 1280 px and 390 px without sideways scrolling or cut-off buttons", async ({ page, browser, request }, testInfo) => {
  test.setTimeout(240_000);
  const receiver = await startReceiver();
  try {
    const merchant = await signUpThroughForm(page, "Widths");
    const auth = { authorization: `Bearer ${merchant.apiKey}` };
    const update = await request.put(`/api/v1/merchant/${merchant.merchantId}`, { headers: auth, data: { webhookUrl: receiver.url } });
    expect(update.status(), await update.text()).toBe(200);
    const invoice = await request.post("/api/v1/invoice", { headers: auth, data: { amount: "15693", currency: "JPY", orderId: uniqueId("order") } });
    expect(invoice.status(), await invoice.text()).toBe(201);
    const invoiceId = (await invoice.json()).id as string;
    const payment = await createPaymentOverRest(request, merchant.apiKey, {
      externalId: uniqueId("a-rather-long-external-id-from-the-shop"),
      amount: "1234.56",
      currency: "EUR",
      reference: uniqueId("bank-transfer-reference"),
    });
    // The receiver answers 500 to every attempt (three, WEBHOOK_RETRY_SCHEDULE in playwright.config.ts): a failed delivery.
    let deliveryId = "";
    await expect(async () => {
      const response = await request.get("/api/v1/webhook/failed", { headers: auth });
      deliveryId = ((await response.json()).data?.[0]?.id as string | undefined) ?? "";
      expect(deliveryId).not.toBe("");
    }).toPass({ timeout: 30_000 });
    const ids: Ids = { merchantId: merchant.merchantId, paymentId: payment.id, invoiceId, deliveryId };

    await checkPages(page, testInfo, "merchant", ids);
    const anonymous = await browser.newPage();
    await checkPages(anonymous, testInfo, "anyone", ids);
    await anonymous.close();
    await page.context().clearCookies();
    await signIn(page, STAFF.email, STAFF.password);
    await checkPages(page, testInfo, "staff", ids);
  } finally {
    await receiver.close();
  }
});
