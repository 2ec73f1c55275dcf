import { expect, test } from "@playwright/test";
import { expectAccessible, screenshot, signUpThroughForm } from "./helpers";

test("keys and settings pages: create and revoke a key, a restricted key with its scopes, change the password", async ({ page }, testInfo) => {
  const merchant = await signUpThroughForm(page);
  await page.goto("/dashboard/keys");
  await expect(page.getByRole("heading", { level: 1, name: "Keys" })).toBeVisible();
  await page.getByLabel("Name (optional)").fill("CI server");
  await page.getByRole("button", { name: "Create key" }).click();
  // Shown once, in full, with a copy button: no reveal step.
  await expect(page.getByRole("button", { name: "Copy new api key" })).toBeVisible();
  const key = (await page.locator(".alert-warning code").textContent())!.trim();
  expect(key).toMatch(/^sk_live_/);
  expect(key).not.toBe(merchant.apiKey);
  await expect(page.getByRole("table", { name: /API keys/ })).toContainText("CI server");
  await expectAccessible(page);
  await screenshot(page, testInfo, "keys");

  await page.getByRole("button", { name: `Revoke key …${key.slice(-4)}` }).click();
  await page.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(page.getByRole("table", { name: /API keys/ }).locator("tr", { hasText: "CI server" })).toContainText("revoked");

  // A restricted key: a level per resource, shown once, listed with its scopes; it reads payments and nothing more.
  await page.getByRole("button", { name: "Done: I have stored it" }).click();
  await page.getByLabel("Name (optional)").fill("Reporting");
  await page.getByLabel("Access").selectOption("restricted");
  await page.getByLabel("payments", { exact: true }).selectOption("read");
  await page.getByLabel("refunds", { exact: true }).selectOption("write");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByRole("button", { name: "Copy new api key" })).toBeVisible();
  const restricted = (await page.locator(".alert-warning code").textContent())!.trim();
  expect(restricted).toMatch(/^rk_live_/);
  const row = page.getByRole("table", { name: /API keys/ }).locator("tr", { hasText: "Reporting" });
  await expect(row).toContainText("payments: read, refunds: write");
  await expect(row).toContainText(`rk_live_…${restricted.slice(-4)}`);
  await expect(page.getByRole("table", { name: /API keys/ }).locator("tr", { hasText: "CI server" })).toContainText("Full access");
  const read = await page.request.get("/api/v1/payment", { headers: { authorization: `Bearer ${restricted}` } });
  expect(read.status()).toBe(200);
  const write = await page.request.post("/api/v1/merchant/api-key", { headers: { authorization: `Bearer ${restricted}` }, data: {} });
  expect(write.status()).toBe(403);
  expect((await write.json()).code).toBe("insufficient_scope");

  // Rolling asks first too; the new key is shown once and the old one keeps working for the overlap.
  await page.getByRole("button", { name: "Done: I have stored it" }).click();
  await page.getByRole("button", { name: `Roll key …${restricted.slice(-4)}` }).click();
  await expect(page.getByRole("button", { name: "Yes, roll" })).toBeFocused();
  await page.getByRole("button", { name: "Yes, roll" }).click();
  await expect(page.getByText("Key rolled: the old key keeps working for one hour.")).toBeVisible();
  const rolled = (await page.locator(".alert-warning code").textContent())!.trim();
  expect(rolled).toMatch(/^rk_live_/);
  expect(rolled).not.toBe(restricted);
  expect((await page.request.get("/api/v1/payment", { headers: { authorization: `Bearer ${restricted}` } })).status()).toBe(200);

  await page.goto("/dashboard/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, "settings");
  await page.getByLabel("Current password").fill(merchant.password);
  await page.getByLabel("New password", { exact: true }).fill("a brand new e2e password");
  await page.getByLabel("Repeat the new password").fill("a brand new e2e password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Password changed." })).toBeVisible();
  // This session was re-issued and still works.
  await page.goto("/dashboard/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
});
