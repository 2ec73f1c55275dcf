import { expect, test } from "@playwright/test";
import { sdk } from "./sdk";

// Payments over real HTTP on the production build, through the SDK: the Next.js route files, the
// Idempotency-Key headers and signed cursors as a merchant's server meets them.
async function register(baseURL: string | undefined) {
  const { data, response } = await sdk(baseURL).POST("/merchant/register", {
    body: { name: "E2E Payments", email: `e2e-pay-${Date.now()}@example.com`, password: "an e2e password, long enough" },
  });
  expect(response.status).toBe(201);
  return { key: data!.apiKey, merchantId: data!.merchant.id };
}

test("a payment is recorded, confirmed, replayed by Idempotency-Key, listed, fetched and counted", async ({ baseURL }) => {
  const { key, merchantId } = await register(baseURL);
  const mps = sdk(baseURL, key);
  const externalId = `e2e-${Date.now()}`;
  const once = { header: { "idempotency-key": `${externalId}-1` } };

  const pending = await mps.POST("/payment/confirm", { params: once, body: { externalId, amount: "19.9", currency: "usd", status: "pending" } });
  expect(pending.response.status).toBe(201);
  const payment = pending.data!;
  expect(payment).toMatchObject({ amount: "19.90", currency: "USD", status: "pending" });

  const replay = await mps.POST("/payment/confirm", { params: once, body: { externalId, amount: "19.9", currency: "usd", status: "pending" } });
  expect(replay.response.status).toBe(201);
  expect(replay.response.headers.get("idempotent-replayed")).toBe("true");
  expect(replay.data).toEqual(payment);

  const confirmed = await mps.POST("/payment/confirm", { body: { externalId, amount: "19.90", currency: "USD" } });
  expect(confirmed.response.status).toBe(200);
  expect(confirmed.data!.status).toBe("confirmed");
  const backwards = await mps.POST("/payment/confirm", { body: { externalId, amount: "19.90", currency: "USD", status: "pending" } });
  expect(backwards.response.status).toBe(409);
  expect(backwards.error!.code).toBe("invalid_transition");

  const list = await mps.GET("/payment", { params: { query: { limit: 1 } } });
  expect(list.data!.data[0]!.id).toBe(payment.id);
  const one = await mps.GET("/payment/{id}", { params: { path: { id: payment.id } } });
  expect(one.data!.status).toBe("confirmed");
  const stats = await mps.GET("/merchant/{id}/stats", { params: { path: { id: merchantId } } });
  expect(stats.data!.volume).toEqual([{ currency: "USD", amount: "19.90", count: 1 }]);

  const tampered = await mps.GET("/payment", { params: { query: { cursor: "not.valid" } } });
  expect(tampered.response.status).toBe(400);
  expect(tampered.response.headers.get("content-type")).toBe("application/problem+json");
});
