import { expect, test, type APIRequestContext } from "@playwright/test";

// Payments over real HTTP on the production build: the Next.js route files, the Idempotency-Key headers and
// signed cursors as a merchant's server meets them.
async function register(request: APIRequestContext) {
  const response = await request.post("/api/v1/merchant/register", {
    data: { name: "E2E Payments", email: `e2e-pay-${Date.now()}@example.com`, password: "an e2e password, long enough" },
  });
  expect(response.status()).toBe(201);
  const body = await response.json();
  return { key: body.apiKey as string, merchantId: body.merchant.id as string };
}

test("a payment is recorded, confirmed, replayed by Idempotency-Key, listed, fetched and counted", async ({ request }) => {
  const { key, merchantId } = await register(request);
  const headers = { authorization: `Bearer ${key}` };
  const externalId = `e2e-${Date.now()}`;

  const pending = await request.post("/api/v1/payment/confirm", {
    headers: { ...headers, "idempotency-key": `${externalId}-1` },
    data: { externalId, amount: "19.9", currency: "usd", status: "pending" },
  });
  expect(pending.status()).toBe(201);
  const payment = await pending.json();
  expect(payment).toMatchObject({ amount: "19.90", currency: "USD", status: "pending" });

  const replay = await request.post("/api/v1/payment/confirm", {
    headers: { ...headers, "idempotency-key": `${externalId}-1` },
    data: { externalId, amount: "19.9", currency: "usd", status: "pending" },
  });
  expect(replay.status()).toBe(201);
  expect(replay.headers()["idempotent-replayed"]).toBe("true");
  expect(await replay.text()).toBe(JSON.stringify(payment));

  const confirmed = await request.post("/api/v1/payment/confirm", { headers, data: { externalId, amount: "19.90", currency: "USD" } });
  expect(confirmed.status()).toBe(200);
  expect((await confirmed.json()).status).toBe("confirmed");
  const backwards = await request.post("/api/v1/payment/confirm", { headers, data: { externalId, amount: "19.90", currency: "USD", status: "pending" } });
  expect(backwards.status()).toBe(409);
  expect((await backwards.json()).code).toBe("invalid_transition");

  const list = await request.get("/api/v1/payment?limit=1", { headers });
  expect((await list.json()).data[0].id).toBe(payment.id);
  const one = await request.get(`/api/v1/payment/${payment.id}`, { headers });
  expect((await one.json()).status).toBe("confirmed");
  const stats = await (await request.get(`/api/v1/merchant/${merchantId}/stats`, { headers })).json();
  expect(stats.volume).toEqual([{ currency: "USD", amount: "19.90", count: 1 }]);

  const tampered = await request.get("/api/v1/payment?cursor=not.valid", { headers });
  expect(tampered.status()).toBe(400);
  expect(tampered.headers()["content-type"]).toBe("application/problem+json");
});
