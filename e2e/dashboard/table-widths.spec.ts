import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { createPaymentOverRest, expectAccessible, screenshot, signIn, signUpThroughForm, STAFF, uniqueId } from "./helpers";
import { startReceiver } from "./receiver";

/**
 * No dashboard table hides columns behind a sideways scroll at 1280 px, with the long values support agents
 * really meet (long external ids and references, a long business name and email, JSON audit details, a long
 * failing webhook URL): every table's box is measured, scrollWidth against clientWidth. At 390 px each row is a
 * card and must fit too. Each page is also checked with axe. Pages are listed once, in PAGES, so a new table's
 * page is one line.
 */
interface Ids {
  merchantId: string;
  invoiceId: string;
  term: string;
}

type Who = "merchant" | "staff";
const PAGES: { who: Who; name: string; path: (ids: Ids) => string; open?: (page: Page) => Promise<void> }[] = [
  { who: "merchant", name: "payments", path: () => "/dashboard/payments" },
  { who: "merchant", name: "invoices", path: () => "/dashboard/invoices" },
  { who: "merchant", name: "invoice", path: (ids) => `/dashboard/invoices/${ids.invoiceId}` },
  { who: "merchant", name: "webhooks", path: () => "/dashboard/webhooks" },
  { who: "merchant", name: "reconciliation", path: () => "/dashboard/reconciliation", open: openFirstReport },
  { who: "merchant", name: "keys", path: () => "/dashboard/keys" },
  { who: "staff", name: "staff-search", path: (ids) => `/dashboard/staff?q=${ids.term}` },
  { who: "staff", name: "staff-merchants", path: () => "/dashboard/staff/merchants" },
  { who: "staff", name: "staff-merchant", path: (ids) => `/dashboard/staff/merchants/${ids.merchantId}` },
  {
    who: "staff",
    name: "staff-merchant-reconciliation",
    path: (ids) => `/dashboard/staff/merchants/${ids.merchantId}/reconciliation`,
    open: openFirstReport,
  },
  { who: "staff", name: "staff-audit", path: () => "/dashboard/staff/audit" },
];

async function openFirstReport(page: Page) {
  await page.getByRole("region", { name: "Past reports" }).getByRole("button").first().click();
  await expect(page.getByRole("region", { name: "Report lines" })).toBeVisible();
}

/** Each table's box: how much wider its content is than what it shows. */
function tablesOverflow(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>(".table-wrap, table")]
      .filter((element) => element.getBoundingClientRect().width > 0)
      .map((element) => ({
        table: element.getAttribute("aria-label") ?? element.querySelector("caption")?.textContent ?? element.className,
        hidden: element.scrollWidth - element.clientWidth,
      }))
      .filter((box) => box.hidden > 1),
  );
}

async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
  await expect(page.locator("[aria-busy=true], .state:text-matches('^Loading')")).toHaveCount(0);
}

async function checkPages(page: Page, testInfo: TestInfo, who: Who, ids: Ids) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const entry of PAGES.filter((candidate) => candidate.who === who)) {
      await test.step(`${entry.name} at ${width} px`, async () => {
        await page.goto(entry.path(ids));
        await settle(page);
        await entry.open?.(page);
        await expect(page.locator("table").filter({ visible: true }).first()).toBeVisible();
        await screenshot(page, testInfo, `tables-${width}-${entry.name}`);
        expect.soft(await tablesOverflow(page), `${entry.name} at ${width} px: tables scrolling sideways`).toEqual([]);
        if (width === 1280) await expectAccessible(page);
      });
    }
  }
}

test("no dashboard table scrolls sideways at 1280 px (or 390 px), with long real-world values", async ({ page, request }, testInfo) => {
  test.setTimeout(300_000);
  const receiver = await startReceiver();
  try {
    const merchant = await signUpThroughForm(page, "The Extraordinarily Long-Named Bicycle Repair Cooperative of Upper Bavaria");
    const auth = { authorization: `Bearer ${merchant.apiKey}` };
    const term = uniqueId("wide");
    const invoice = await request.post("/api/v1/invoice", {
      headers: auth,
      data: { amount: "123456.78", currency: "EUR", orderId: `${term}-order-with-a-rather-long-identifier-from-the-shop-system` },
    });
    expect(invoice.status(), await invoice.text()).toBe(201);
    const invoiceId = (await invoice.json()).id as string;
    const externalIds: string[] = [];
    for (const index of [1, 2, 3]) {
      const externalId = `${term}-pi_3QxLongProcessorPaymentIntentIdentifier${index}abcdefghijklmnopqrstuvwxyz`;
      externalIds.push(externalId);
      await createPaymentOverRest(request, merchant.apiKey, {
        externalId,
        amount: index === 1 ? "100000.00" : "12345.67",
        currency: "EUR",
        reference: `SEPA-CT-${term}-RF18539007547034-${"X".repeat(24)}`,
        ...(index === 1 ? { invoiceId } : {}),
        metadata: { customer: "someone.with.a.very.long.address@subdomain.example-company.co.uk", cart: "x".repeat(80) },
      });
    }
    // A settlement file with every kind of line, long values included.
    const day = new Date().toISOString().slice(0, 10);
    const file = [
      "externalId,reference,amount,currency,settledAt",
      `${externalIds[0]},SEPA-${"Y".repeat(40)},100000.00,EUR,${day}`,
      `${externalIds[1]},,12345.68,EUR,${day}`,
      `${term}-not-in-the-ledger-${"z".repeat(60)},,3.00,EUR,${day}`,
      `${term}-bad,,three euros and fifty cents,EUR,${day}`,
    ].join("\n");
    const reconciled = await request.post("/api/v1/reconciliation", { headers: { ...auth, "content-type": "text/csv" }, data: file });
    expect(reconciled.status(), await reconciled.text()).toBe(201);
    // A long webhook URL that fails every attempt, set after the data above (so one event, not a dozen, waits on
    // the endpoint's breaker): the deliveries tables show it failing.
    const hook = `${receiver.url}/${"a-very-long-path-segment-".repeat(3)}receiver?token=${uniqueId("t")}`;
    const update = await request.put(`/api/v1/merchant/${merchant.merchantId}`, { headers: auth, data: { webhookUrl: hook } });
    expect(update.status(), await update.text()).toBe(200);
    await createPaymentOverRest(request, merchant.apiKey, { externalId: `${term}-after-the-hook`, amount: "1.00", currency: "EUR" });
    await expect(async () => {
      const failed = await request.get("/api/v1/webhook/failed", { headers: auth });
      expect(((await failed.json()).data ?? []).length).toBeGreaterThan(0);
    }).toPass({ timeout: 30_000 });
    const ids: Ids = { merchantId: merchant.merchantId, invoiceId, term };

    await checkPages(page, testInfo, "merchant", ids);
    await page.context().clearCookies();
    await signIn(page, STAFF.email, STAFF.password);
    // Staff reads write JSON details to the audit log; this gives it a line with a long one too.
    await page.goto(`/dashboard/staff?q=${term}`);
    await checkPages(page, testInfo, "staff", ids);
  } finally {
    await receiver.close();
  }
});
