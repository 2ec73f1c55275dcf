import { expect, test } from "@playwright/test";

test("the home page renders and links to the dashboard and the API reference", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Merchant Payments" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/dashboard");
  await expect(page.getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs");
});

test("health and readiness answer from the running server", async ({ request }) => {
  const live = await request.get("/api/v1/health");
  expect(live.status()).toBe(200);
  expect(await live.json()).toEqual({ status: "ok" });
  const ready = await request.get("/api/v1/health/ready");
  expect(ready.status()).toBe(200);
  expect(await ready.json()).toEqual({ status: "ready" });
  expect(ready.headers()["x-request-id"]).toMatch(/^req_/);
});

test("an unknown API path is a problem+json 404 from the real server", async ({ request }) => {
  const response = await request.get("/api/v1/does-not-exist");
  expect(response.status()).toBe(404);
  expect(response.headers()["content-type"]).toBe("application/problem+json");
  expect((await response.json()).code).toBe("not_found");
});

test("a merchant registers over HTTP and receives its credentials once", async ({ request }) => {
  const email = `e2e-${Date.now()}@example.com`;
  const response = await request.post("/api/v1/merchant/register", {
    data: { name: "E2E Shop", email, password: "an e2e password, long enough" },
  });
  expect(response.status()).toBe(201);
  const body = await response.json();
  expect(body.apiKey).toMatch(/^sk_live_/);
  expect(body.webhookSecret).toMatch(/^whsec_/);
  expect(body.merchant.email).toBe(email);
});
