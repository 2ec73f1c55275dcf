import { expect, test, type Browser, type BrowserContext, type Page, type TestInfo } from "@playwright/test";
import { DESKTOP, PHONE, screenshot, signOut, signUpThroughForm } from "./support";

// Sessions are server-side facts (docs/dashboard.md, "Sessions"): signing out or changing the password ends a
// session everywhere within 5 s, whoever holds a copy of its cookie. On the PostgreSQL server the copy is used
// against a second web process on the same database (playwright.config.ts); the embedded database has one process.
const BOUND_MS = 5_000;

function otherProcess(testInfo: TestInfo, baseURL: string | undefined): string {
  return (testInfo.project.metadata as { secondProcessURL?: string }).secondProcessURL ?? baseURL!;
}

/** A second browser holding a copy of the page's session cookie, as a thief or a forgotten laptop would. */
async function copyOfSession(browser: Browser, page: Page): Promise<BrowserContext> {
  const copy = await browser.newContext();
  await copy.addCookies(await page.context().cookies());
  return copy;
}

/** What the copied cookie gets from the dashboard's API (tRPC) and a page, at `origin`. */
async function usable(copy: BrowserContext, origin: string): Promise<{ api: number; page: string }> {
  const api = await copy.request.get(`${origin}/api/trpc/merchants.profile`);
  const probe = await copy.newPage();
  await probe.goto(`${origin}/dashboard/payments`);
  const url = new URL(probe.url()).pathname;
  await probe.close();
  return { api: api.status(), page: url };
}

/**
 * Polls until the copy is refused; how long that took. The bound is on the process's session cache, so the poll is
 * its lightest request (one API call: a page load between polls would add seconds of rendering on a loaded machine to
 * the measure); once the API refuses the copy, a page must refuse it as well, at once (the same lookup).
 */
async function refusedWithin(copy: BrowserContext, origin: string): Promise<number> {
  const started = Date.now();
  await expect(async () => expect((await copy.request.get(`${origin}/api/trpc/merchants.profile`)).status()).toBe(401)).toPass({
    timeout: BOUND_MS + 2_000,
    intervals: [100, 250, 500],
  });
  const took = Date.now() - started;
  expect(await usable(copy, origin)).toEqual({ api: 401, page: "/login" });
  return took;
}

test("a signed-out session's copied cookie is refused, by every process, within 5 s", async ({ page, browser, baseURL }, testInfo) => {
  await page.setViewportSize(DESKTOP);
  await signUpThroughForm(page, "Session Shop");
  await page.goto("/dashboard");
  const origin = otherProcess(testInfo, baseURL);
  const copy = await copyOfSession(browser, page);
  try {
    expect(await usable(copy, origin)).toEqual({ api: 200, page: "/dashboard/payments" });
    await signOut(page);
    expect(await refusedWithin(copy, origin)).toBeLessThan(BOUND_MS);
    // The export (a route handler, not tRPC) refuses it too.
    expect((await copy.request.get(`${origin}/dashboard/payments/export`)).status()).toBe(401);
  } finally {
    await copy.close();
  }
});

test("after a password change, every earlier session's cookie is refused everywhere; the tab that changed it is signed in anew", async ({ page, browser, baseURL }, testInfo) => {
  await page.setViewportSize(PHONE);
  const merchant = await signUpThroughForm(page, "Password Shop");
  await page.goto("/dashboard/settings");
  const origin = otherProcess(testInfo, baseURL);
  // A copy of this very session's cookie (a password is changed because a cookie may be in other hands), and
  // another sign-in of the same user on another device.
  const copy = await copyOfSession(browser, page);
  const elsewhere = await browser.newContext();
  try {
    const elsewherePage = await elsewhere.newPage();
    await elsewherePage.goto(`${origin}/login`);
    await elsewherePage.getByLabel("Email").fill(merchant.email);
    await elsewherePage.getByLabel("Password").fill(merchant.password);
    await elsewherePage.getByRole("button", { name: "Sign in" }).click();
    await elsewherePage.waitForURL(/\/dashboard/);
    expect(await usable(copy, origin)).toEqual({ api: 200, page: "/dashboard/payments" });
    expect(await usable(elsewhere, origin)).toEqual({ api: 200, page: "/dashboard/payments" });

    await page.getByLabel("Current password").fill(merchant.password);
    await page.getByLabel("New password", { exact: true }).fill("a brand new journey password");
    await page.getByLabel("Repeat the new password").fill("a brand new journey password");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page).toHaveURL(/password=changed/);
    await screenshot(page, testInfo, "journey-password-changed-390");

    expect(await refusedWithin(copy, origin)).toBeLessThan(BOUND_MS);
    expect(await refusedWithin(elsewhere, origin)).toBeLessThan(BOUND_MS);
    // The tab that changed it holds a new session.
    await page.goto("/dashboard/payments");
    await expect(page.getByRole("heading", { level: 1, name: "Payments" })).toBeVisible();
  } finally {
    await copy.close();
    await elsewhere.close();
  }
});

test("a second tab after sign-out: its next action is refused and it is sent to sign in", async ({ page, baseURL }, testInfo) => {
  await page.setViewportSize(DESKTOP);
  await signUpThroughForm(page, "Two Tabs");
  await page.goto("/dashboard/keys");
  const second = await page.context().newPage();
  await second.goto(`${baseURL}/dashboard/keys`);
  await expect(second.getByRole("table", { name: /API keys/ })).toContainText("sk_live_");

  await signOut(page);
  // The second tab's next call to the dashboard's API is refused, and the tab goes to the sign-in page, back here after.
  await second.getByRole("button", { name: "Create key" }).click();
  await expect(second).toHaveURL(/\/login\?callbackUrl=%2Fdashboard%2Fkeys/);
  await screenshot(second, testInfo, "journey-second-tab-signed-out");
  // Nothing was created by the refused call.
  await second.close();
});
