import AxeBuilder from "@axe-core/playwright";
import SwaggerParser from "@apidevtools/swagger-parser";
import { expect, test } from "@playwright/test";

test("the running server serves a valid OpenAPI 3.1 document", async ({ request }) => {
  const response = await request.get("/api/v1/openapi.json");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("application/json");
  const document = await response.json();
  expect(document.openapi).toBe("3.1.0");
  expect(Object.keys(document.paths)).toContain("/merchant/register");
  await SwaggerParser.validate(document);
});

test("the API reference renders the document, without serious accessibility violations", async ({ page }) => {
  await page.goto("/docs");
  await expect(page.getByRole("heading", { level: 1, name: "Merchant Payments API" })).toBeVisible();
  await expect(page.locator("#registerMerchant")).toContainText("/api/v1/merchant/register");
  await expect(page.getByRole("link", { name: "/api/v1/openapi.json" })).toBeVisible();
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
