import { expect, test } from "@playwright/test";
import { expectAccessible, screenshot, signIn, signOut, signUpThroughForm, STAFF } from "./helpers";

test("sign-up shows the API key once, in full with a copy button, the webhook secret masked, and signs the merchant in", async ({ page }, testInfo) => {
  await page.goto("/sign-up");
  await expectAccessible(page);
  await screenshot(page, testInfo, "sign-up");

  const merchant = await signUpThroughForm(page);
  expect(merchant.merchantId).toMatch(/^mer_/);
  expect(merchant.apiKey).toMatch(/^sk_live_[0-9A-Za-z]{49}$/);
  expect(merchant.webhookSecret).toMatch(/^whsec_/);
  await expect(page.getByRole("button", { name: "Copy api key" })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, "sign-up-credentials");

  await page.getByRole("link", { name: /go to the dashboard/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await expect(page.getByText(`Signed in as ${merchant.email}`)).toBeVisible();
});

test("login refuses a wrong password in words, then signs in; sign-out ends the session", async ({ page }, testInfo) => {
  const merchant = await signUpThroughForm(page);
  await page.context().clearCookies();

  await page.goto("/dashboard/payments");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fdashboard%2Fpayments/);
  await expectAccessible(page);
  await screenshot(page, testInfo, "login");

  await page.getByLabel("Email").fill(merchant.email);
  await page.getByLabel("Password").fill("not the right password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator(".alert-error")).toHaveText("The email or the password is wrong.");

  await page.getByLabel("Password").fill(merchant.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard\/payments$/);

  await signOut(page);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login/);
});

test("a merchant can never reach the staff console or its data", async ({ page }) => {
  const merchant = await signUpThroughForm(page);
  await page.goto("/dashboard");
  await expect(page.getByText(`Signed in as ${merchant.email}`)).toBeVisible();

  await page.goto("/dashboard/staff");
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/dashboard/staff/audit");
  await expect(page).not.toHaveURL(/staff/);

  // The staff API refuses the merchant's session outright.
  const origin = new URL(page.url()).origin;
  const response = await page.request.get(`/api/trpc/staff.auditLog?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`, {
    headers: { origin },
  });
  expect(response.status()).toBe(403);
  const body = await response.text();
  expect(body).toContain("it needs the staff.audit.read permission");
  expect(body).not.toContain("merchant.registered");
});

test("staff sign in to the support console, not the merchant pages", async ({ page }, testInfo) => {
  await signIn(page, STAFF.email, STAFF.password);
  await expect(page).toHaveURL(/\/dashboard\/staff$/);
  await page.goto("/dashboard/payments");
  await expect(page).toHaveURL(/\/dashboard\/staff$/);
  await expectAccessible(page);
  await screenshot(page, testInfo, "staff-search");

  await page.getByRole("link", { name: "Account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, "staff-account");
});

test("cross-site POSTs to the dashboard API are refused", async ({ page }) => {
  await signUpThroughForm(page);
  const response = await page.request.post("/api/trpc/account.me", {
    headers: { origin: "https://evil.example", "content-type": "application/json", "sec-fetch-site": "cross-site" },
    data: {},
  });
  expect(response.status()).toBe(403);
});

test("works with the keyboard alone: skip link, sign-in form, navigation", async ({ page }) => {
  const merchant = await signUpThroughForm(page);
  await page.context().clearCookies();
  await page.goto("/login");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Email")).toBeFocused();
  await page.keyboard.type(merchant.email);
  await page.keyboard.press("Tab");
  await page.keyboard.type(merchant.password);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Invoices", exact: true })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Payments", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Payments" })).toBeVisible();
});

test("fits a phone's width without sideways scrolling", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signUpThroughForm(page);
  for (const [path, name] of [
    ["/dashboard", "phone-overview"],
    ["/dashboard/payments", "phone-payments"],
    ["/dashboard/webhooks", "phone-webhooks"],
    ["/dashboard/settings", "phone-settings"],
  ] as const) {
    await page.goto(path);
    await expect(page.locator("h1")).toBeVisible();
    await page.waitForLoadState("networkidle");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
    await screenshot(page, testInfo, name);
  }
});
