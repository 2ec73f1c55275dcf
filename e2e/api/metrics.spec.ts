import { expect, test } from "@playwright/test";

// The production build bundles the instrumentation hook and each route apart: a confirm served by the catch-all
// must show in the scrape served by the metrics route, and the runtime's switch must reach both.
const TOKEN = "e2e-metrics-token-e2e-metrics-token-0123";

function sample(text: string, line: RegExp): number {
  return Number(line.exec(text)?.[1] ?? 0);
}

test("a confirm over HTTP is counted under its route template in the scrape, which needs the token", async ({ request }) => {
  expect((await request.get("/api/v1/metrics")).status()).toBe(401);
  expect((await request.get("/api/v1/metrics", { headers: { authorization: "Bearer not-the-token" } })).status()).toBe(401);
  const scrape = async () => {
    const response = await request.get("/api/v1/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("text/plain");
    return response.text();
  };
  const confirms = /^http_request_duration_seconds_count\{method="POST",route="\/payment\/confirm",status="201"\} (\d+)$/m;
  const before = sample(await scrape(), confirms);

  const registered = await request.post("/api/v1/merchant/register", {
    data: { name: "E2E Metrics", email: `e2e-metrics-${Date.now()}@example.com`, password: "an e2e password, long enough" },
  });
  expect(registered.status()).toBe(201);
  const { apiKey } = (await registered.json()) as { apiKey: string };
  const confirmed = await request.post("/api/v1/payment/confirm", {
    headers: { authorization: `Bearer ${apiKey}` },
    data: { externalId: `e2e-metrics-${Date.now()}`, amount: "5.00", currency: "EUR" },
  });
  expect(confirmed.status()).toBe(201);

  const after = await scrape();
  expect(sample(after, confirms)).toBe(before + 1);
  expect(after).toMatch(/^webhook_deliveries_due \d+$/m);
  expect(after).toMatch(/^process_cpu_seconds_total /m);
  expect(after).not.toContain((await confirmed.json()).id as string);
});
