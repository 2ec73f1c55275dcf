import AxeBuilder from "@axe-core/playwright";
import SwaggerParser from "@apidevtools/swagger-parser";
import { expect, test, type Page } from "@playwright/test";
import { quickstartSteps } from "../../src/app/docs/quickstart/steps";

test("the running server serves a valid OpenAPI 3.1 document", async ({ request }) => {
  const response = await request.get("/api/v1/openapi.json");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("application/json");
  const document = await response.json();
  expect(document.openapi).toBe("3.1.0");
  expect(Object.keys(document.paths)).toContain("/merchant/register");
  await SwaggerParser.validate(document);
});

/** Refuses every request to another host, as a machine without network would, and lists them. */
async function offline(page: Page, baseURL: string) {
  const elsewhere: string[] = [];
  await page.route(
    (url) => !url.href.startsWith(baseURL),
    (route) => {
      elsewhere.push(route.request().url());
      return route.abort();
    },
  );
  return elsewhere;
}

test("/docs works offline: search finds an operation, which shows SDK and curl samples", async ({ page, baseURL }) => {
  const elsewhere = await offline(page, baseURL!);
  await page.goto("/docs");
  // Rendered by Scalar in the browser: its first load parses a 4 MB bundle.
  await expect(page.getByRole("heading", { name: "Merchant Payments API" })).toBeVisible({ timeout: 30_000 });
  await page.getByRole("button", { name: /Open Search/ }).click();
  await page.keyboard.type("Create an invoice");
  const hit = page.getByRole("option", { name: /Create an invoice/ }).first();
  await expect(hit).toBeVisible();
  await hit.click();
  await expect(page).toHaveURL(/#.*POST\/invoice$/);
  const operation = page.locator("section", { has: page.getByRole("heading", { name: "Create an invoice", exact: true }) }).last();
  await operation.getByRole("button", { name: /Shell Curl/ }).first().click();
  await expect(page.getByRole("option", { name: "SDK (TypeScript)" })).toBeVisible();
  await expect(page.getByRole("option", { name: "curl", exact: true })).toBeVisible();
  await page.getByRole("option", { name: "SDK (TypeScript)" }).click();
  await expect(operation.getByText('mps.POST("/invoice"')).toBeVisible();
  expect(elsewhere).toEqual([]);
});

test("/docs try-it sends the request to the running service", async ({ page, baseURL }) => {
  const elsewhere = await offline(page, baseURL!);
  await page.goto("/docs");
  await page.getByRole("button", { name: /Test Request/ }).first().click({ timeout: 30_000 });
  const answered = page.waitForResponse((response) => response.url() === `${baseURL}/api/v1/health`);
  await page.getByRole("button", { name: /^Send/ }).first().click();
  expect((await answered).status()).toBe(200);
  await expect(page.getByText("200 OK").first()).toBeVisible();
  expect(elsewhere).toEqual([]);
});

test("/docs and the quickstart fit a 390 px phone without sideways scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [path, title] of [["/docs", "Merchant Payments API"], ["/docs/quickstart", "Quickstart"]] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: title, exact: true })).toBeVisible({ timeout: 30_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
  }
});

test("the quickstart renders every step, linked from /docs, without serious accessibility violations", async ({ page }) => {
  await page.goto("/docs");
  await page.getByRole("link", { name: "Quickstart" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Quickstart" })).toBeVisible();
  for (const step of quickstartSteps) {
    await expect(page.getByRole("heading", { level: 2, name: step.title })).toBeVisible();
    await expect(page.locator(`[data-step="${step.id}"]`)).toHaveText(step.code.source);
  }
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
});

test("a problem's `type` leads to its entry in the error catalogue", async ({ page, request }) => {
  const problem = await (await request.get("/api/v1/no/such/endpoint")).json();
  expect(problem.type).toBe("/docs/errors#not_found");
  await page.goto(problem.type);
  await expect(page.locator("#not_found")).toContainText("404");
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
});
