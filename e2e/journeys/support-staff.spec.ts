import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { DESKTOP, downloaded, expectAccessible, expectNoSidewaysScroll, PHONE, screenshot, sdk, signIn, STAFF } from "./support";

// Support staff, across features: search a payment of any merchant, open the merchant, reconcile a settlement
// file for them (upload, resolve a line, export the report), and find every step in the audit log.
test("support staff: search a payment → open the merchant → upload a settlement file → resolve a line → export → audit log", async ({ page, baseURL }, testInfo) => {
  const suffix = randomBytes(4).toString("hex");
  const registered = await sdk(baseURL, undefined, { "x-forwarded-for": `10.${randomBytes(3).join(".")}` }).POST("/merchant/register", {
    body: { name: `Staff Journey ${suffix}`, email: `staff-journey-${suffix}@e2e.example`, password: `e2e password ${suffix}` },
  });
  expect(registered.response.status, JSON.stringify(registered.error)).toBe(201);
  const { merchant, apiKey } = registered.data!;
  const api = sdk(baseURL, apiKey);
  const ids = { matched: `m-${suffix}`, short: `s-${suffix}` };
  const payments: Record<string, string> = {};
  for (const [externalId, amount] of [[ids.matched, "40.00"], [ids.short, "12.50"]] as const) {
    const confirmed = await api.POST("/payment/confirm", { body: { externalId, amount, currency: "EUR" } });
    expect(confirmed.response.status, JSON.stringify(confirmed.error)).toBe(201);
    payments[externalId] = confirmed.data!.id;
  }

  await page.setViewportSize(DESKTOP);
  await signIn(page, STAFF.email, STAFF.password);
  await page.getByLabel("Payment id, external id or reference").fill(ids.short);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("status").filter({ hasText: "1 payment found" })).toBeVisible();
  await page.getByRole("table").getByRole("link", { name: payments[ids.short] }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(payments[ids.short]!);
  // Back returns to the same results (the term is in the URL), and the link opens the payment again.
  await page.goBack();
  await expect(page.getByRole("status").filter({ hasText: "1 payment found" })).toBeVisible();
  await expect(page.getByLabel("Payment id, external id or reference")).toHaveValue(ids.short);
  await page.getByRole("table").getByRole("link", { name: payments[ids.short] }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(payments[ids.short]!);

  // Open the merchant, then their reconciliation.
  await page.getByRole("link", { name: merchant.name }).click();
  await expect(page.getByRole("heading", { level: 1, name: merchant.name })).toBeVisible();
  await page.getByRole("link", { name: "reconciliation", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Reconciliation" })).toBeVisible();

  const day = new Date().toISOString().slice(0, 10);
  const file = ["externalId,amount,currency,settledAt", `${ids.matched},40.00,EUR,${day}`, `${ids.short},12.00,EUR,${day}`].join("\n");
  await page.getByLabel("Settlement file (CSV, up to 10 MB)").setInputFiles({ name: "settlement.csv", mimeType: "text/csv", buffer: Buffer.from(file) });
  await expect(page.getByLabel("amount", { exact: true })).toHaveValue("amount"); // its columns, read from the file
  await page.getByRole("button", { name: "Reconcile" }).click();
  await expect(page.getByTestId("summary-matched")).toHaveText("1");
  await expect(page.getByTestId("summary-mismatched")).toHaveText("1");
  const reportId = (await page.getByRole("heading", { name: /^Report/ }).locator("code").textContent())!.trim();

  const mismatch = page.locator("tr", { hasText: ids.short });
  await mismatch.getByPlaceholder("Note").fill("Processor kept 0.50 as a fee");
  await mismatch.getByRole("button", { name: "Resolve" }).click();
  await expect(mismatch).toContainText("Processor kept 0.50 as a fee");
  await expectAccessible(page);
  await screenshot(page, testInfo, "journey-staff-report");

  const exported = await downloaded(page, () => page.getByRole("link", { name: "Export CSV" }).click());
  expect(exported.download.suggestedFilename()).toBe(`reconciliation-${reportId}.csv`);
  expect(exported.text.split("\n")[0]).toContain("lineNumber,status,reason");
  expect(exported.text).toContain(ids.matched);
  expect(exported.text).toContain("Processor kept 0.50 as a fee");

  // On a phone the report stays on screen.
  await page.setViewportSize(PHONE);
  await expectNoSidewaysScroll(page);
  await screenshot(page, testInfo, "journey-staff-report-390");
  await page.setViewportSize(DESKTOP);

  // The audit log names each step, by the staff user.
  await page.goto(`/dashboard/staff/audit?merchantId=${merchant.id}`);
  const log = page.getByRole("table");
  for (const action of ["payment.viewed", "staff.merchant_viewed", "reconciliation.created", "reconciliation.line_resolved", "reconciliation.exported"]) {
    await expect(log, action).toContainText(action);
  }
  await expect(log).toContainText(STAFF.email);
  await page.getByLabel("Merchant id").fill("");
  await page.getByLabel("Action").fill("payment.searched");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByRole("table")).toContainText(ids.short);
  await expectAccessible(page);
  await screenshot(page, testInfo, "journey-staff-audit");
});

// "View as merchant" (docs/team-and-security.md): staff open a merchant's own dashboard read-only, with a reason,
// for at most an hour, under a banner; nothing can be changed; every page opened is in the merchant's audit log.
test("support staff: view as merchant with a reason → the merchant's payments under the banner → nothing to change → stop → audit log", async ({ page, baseURL }, testInfo) => {
  // A long journey (two sign-ins, a dozen pages, two phone-width screenshots): it took over a minute on a loaded CI machine.
  test.slow();
  const suffix = randomBytes(4).toString("hex");
  const registered = await sdk(baseURL, undefined, { "x-forwarded-for": `10.${randomBytes(3).join(".")}` }).POST("/merchant/register", {
    body: { name: `Viewed Shop ${suffix}`, email: `viewed-${suffix}@e2e.example`, password: `e2e password ${suffix}` },
  });
  expect(registered.response.status, JSON.stringify(registered.error)).toBe(201);
  const { merchant, apiKey } = registered.data!;
  const confirmed = await sdk(baseURL, apiKey).POST("/payment/confirm", { body: { externalId: `va-${suffix}`, amount: "31.00", currency: "EUR" } });
  expect(confirmed.response.status, JSON.stringify(confirmed.error)).toBe(201);
  const paymentId = confirmed.data!.id;

  await page.setViewportSize(DESKTOP);
  await signIn(page, STAFF.email, STAFF.password);
  // Without a grant, the merchant's pages send staff to their console.
  await page.goto("/dashboard/payments");
  await expect(page).toHaveURL(/\/dashboard\/staff$/);

  await page.goto(`/dashboard/staff/merchants/${merchant.id}`);
  const form = page.getByRole("region", { name: "View as merchant" });
  await form.getByRole("button", { name: "View as merchant" }).click();
  await expect(form.getByLabel("Reason")).toHaveAttribute("aria-invalid", "true");
  await expect(form).toContainText("Give a reason");
  await page.setViewportSize(PHONE);
  await expectNoSidewaysScroll(page);
  await screenshot(page, testInfo, "journey-view-as-reason-390");
  await page.setViewportSize(DESKTOP);
  await form.getByLabel("Reason").fill(`ticket ${suffix}: a payment the merchant cannot find`);
  await form.getByRole("button", { name: "View as merchant" }).click();
  await page.waitForURL(/\/dashboard$/);

  // The merchant's overview, under the banner; the header offers the pages the view may open.
  const banner = page.getByRole("region", { name: "Viewing as a merchant" });
  await expect(banner).toContainText(`Viewing ${merchant.name} as support — read-only`);
  await expect(banner).toContainText(/(59|60) minutes left/);
  const nav = page.getByRole("navigation", { name: "Dashboard" });
  await expect(nav.getByRole("link", { name: "Payments" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Keys" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Audit log" })).toHaveCount(0);
  await expect(page.getByRole("switch", { name: "Test mode" })).toHaveCount(0);

  await nav.getByRole("link", { name: "Payments" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payments" })).toBeVisible();
  await expect(page.getByRole("table")).toContainText(`va-${suffix}`);
  await expectAccessible(page);
  await screenshot(page, testInfo, "journey-view-as-payments");
  await page.setViewportSize(PHONE);
  await expect(banner.getByRole("button", { name: "Stop viewing" })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await screenshot(page, testInfo, "journey-view-as-payments-390");
  await page.setViewportSize(DESKTOP);

  // A payment's page: its refund is not offered, and the server refuses a change however it is asked.
  await page.getByRole("table").getByRole("link", { name: paymentId }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(paymentId);
  await expect(page.getByTestId("payment-refund-status")).toBeVisible();
  await expect(page.getByRole("button", { name: /^Refund/ })).toHaveCount(0);
  const refused = await page.evaluate(async () => {
    const response = await fetch("/api/trpc/merchants.update", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ json: { name: "Changed by staff" } }) });
    return { status: response.status, body: await response.text() };
  });
  expect(refused.status).toBe(403);
  expect(refused.body).toContain("read-only");
  // Pages the view does not open (keys, the audit log, the staff console) lead back to the merchant's overview.
  for (const path of ["/dashboard/keys", "/dashboard/audit", "/dashboard/staff"]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/dashboard$/);
    await expect(banner).toBeVisible();
  }

  await banner.getByRole("button", { name: "Stop viewing" }).click();
  await page.waitForURL(new RegExp(`/dashboard/staff/merchants/${merchant.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: merchant.name })).toBeVisible();
  await expect(page.getByRole("region", { name: "Viewing as a merchant" })).toHaveCount(0);
  await page.goto("/dashboard/payments");
  await expect(page).toHaveURL(/\/dashboard\/staff$/);

  // The merchant's audit log: the view's start (with the reason), each page opened, its end.
  await page.goto(`/dashboard/staff/audit?merchantId=${merchant.id}`);
  const log = page.getByRole("table");
  for (const action of ["staff.view_as_started", "staff.view_as_page_viewed", "staff.view_as_ended"]) {
    await expect(log, action).toContainText(action);
  }
  const pageViews = log.locator("tr", { hasText: "staff.view_as_page_viewed" });
  const viewed = (await pageViews.allTextContents()).join("\n");
  for (const path of ["/dashboard/payments", `/dashboard/payments/${paymentId}`]) expect(viewed, path).toContain(path);
  await expect(log.locator("tr", { hasText: "staff.view_as_started" })).toContainText(`ticket ${suffix}`);
  await expectAccessible(page);
  await screenshot(page, testInfo, "journey-view-as-audit");
});
