import { expect, test } from "@playwright/test";
import { sdk } from "./sdk";

test("the home page renders and links to the dashboard and the API reference", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Merchant Payments" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/dashboard");
  await expect(page.getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs");
});

test("health and readiness answer from the running server", async ({ baseURL }) => {
  const mps = sdk(baseURL);
  const live = await mps.GET("/health");
  expect(live.response.status).toBe(200);
  expect(live.data).toEqual({ status: "ok" });
  const ready = await mps.GET("/health/ready");
  expect(ready.response.status).toBe(200);
  expect(ready.data).toEqual({ status: "ready" });
  expect(ready.response.headers.get("x-request-id")).toMatch(/^req_/);
});

test("an unknown API path is a problem+json 404 from the real server", async ({ request }) => {
  const response = await request.get("/api/v1/does-not-exist");
  expect(response.status()).toBe(404);
  expect(response.headers()["content-type"]).toBe("application/problem+json");
  expect((await response.json()).code).toBe("not_found");
});

test("a merchant registers over HTTP with the SDK and receives its credentials once", async ({ baseURL }) => {
  const email = `e2e-${Date.now()}@example.com`;
  const { data, response } = await sdk(baseURL).POST("/merchant/register", {
    body: { name: "E2E Shop", email, password: "an e2e password, long enough" },
  });
  expect(response.status).toBe(201);
  expect(data!.apiKey).toMatch(/^sk_live_/);
  expect(data!.webhookSecret).toMatch(/^whsec_/);
  expect(data!.merchant.email).toBe(email);
});
