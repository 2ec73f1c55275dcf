import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type APIRequestContext, type Page, type TestInfo } from "@playwright/test";

export interface SignedUpMerchant {
  name: string;
  email: string;
  password: string;
  merchantId: string;
  apiKey: string;
  webhookSecret: string;
}

/** Support staff seeded by scripts/e2e.mjs through `npm run staff:create` before the server starts. */
export const STAFF = {
  email: process.env.E2E_STAFF_EMAIL ?? "support@e2e.example",
  password: process.env.E2E_STAFF_PASSWORD ?? "e2e staff password 0123",
};

/** A full-page screenshot kept as a test artifact (attached to the report and written under test-results). */
export async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const dir = path.resolve("test-results/e2e/screenshots");
  mkdirSync(dir, { recursive: true });
  const body = await page.screenshot({ fullPage: true, path: path.join(dir, `${name}.png`) });
  await testInfo.attach(name, { body, contentType: "image/png" });
}

/** No serious or critical accessibility violations on the page as it is now. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const bad = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  expect(
    bad.map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`),
  ).toEqual([]);
}

/** Signs up through the dashboard's form and reads the once-shown credentials (the API key is shown unmasked). */
export async function signUpThroughForm(page: Page, name = "E2E Shop"): Promise<SignedUpMerchant> {
  const suffix = randomBytes(4).toString("hex");
  // Each test merchant signs up from an address of its own, as separate customers would: sign-ups are
  // limited per client address (X-Forwarded-For, as set by a proxy in front of the app).
  await page.setExtraHTTPHeaders({ "x-forwarded-for": `10.${randomBytes(3).join(".")}` });
  const email = `owner-${suffix}@e2e.example`;
  const password = `e2e password ${suffix}`;
  await page.goto("/sign-up");
  const businessName = `${name} ${suffix}`;
  await page.getByLabel("Business name").fill(businessName);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Your account is ready" })).toBeVisible();
  const merchantId = (await page.getByTestId("merchant-id").textContent())!.trim();
  const apiKey = (await page.getByTestId("api-key").locator("code").textContent())!.trim();
  await page.getByRole("button", { name: "Reveal webhook secret" }).click();
  const webhookSecret = (await page.getByTestId("webhook-secret").locator("code").textContent())!.trim();
  return { name: businessName, email, password, merchantId, apiKey, webhookSecret };
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/dashboard/);
}

/**
 * Flips the header's test-mode switch and waits for the page reload it makes once the mode is set: the switch can
 * show its new state before that reload, and a page read or filled meanwhile is replaced under the test.
 */
export async function flipTestMode(page: Page) {
  await Promise.all([page.waitForEvent("load"), page.getByRole("switch", { name: "Test mode" }).click()]);
}

export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
}

/** Records a payment over the REST API with the merchant's key, as a merchant's server would. */
export async function createPaymentOverRest(request: APIRequestContext, apiKey: string, body: Record<string, unknown>) {
  const response = await request.post("/api/v1/payment/confirm", {
    headers: { authorization: `Bearer ${apiKey}` },
    data: body,
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string; externalId: string; amount: string; currency: string };
}

export function uniqueId(prefix: string) {
  return `${prefix}-${randomBytes(5).toString("hex")}`;
}
