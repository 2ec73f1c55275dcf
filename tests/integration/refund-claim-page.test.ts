import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as claimPage, POST as claimSubmit } from "../../src/app/refund/[token]/route";
import { events } from "../../src/server/db/schema";
import { REFUND_CLAIM_LIMIT } from "../../src/server/rate-limit/limits";
import { testClient, type TestClient } from "../support/client";
import { registerTestMerchant, type TestMerchant } from "../support/merchants";
import { externalId } from "../support/payments";
import { rowCounter } from "../support/row-counts";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

/**
 * The public claim page `/refund/{token}` (docs/refunds.md, "Claim link"): the payer gives a destination once; a
 * second claim, a claim after expiry and bad input change nothing and say why; unknown tokens are a plain 404.
 */
let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;
let countRows: () => Promise<Record<string, number>>;
const runtimeRef = globalThis as typeof globalThis & { __mpsRuntime?: Promise<unknown> };

beforeAll(async () => {
  runtime = await createTestRuntime({ env: { RATE_LIMIT_PER_IP: "1000" } });
  runtimeRef.__mpsRuntime = Promise.resolve(runtime);
  api = testClient(runtime);
  shop = await registerTestMerchant(api, { name: "Kaffee & Co" });
  countRows = await rowCounter(runtime.database.db);
});
afterAll(async () => {
  runtimeRef.__mpsRuntime = undefined;
  await runtime?.close();
});

async function claimLink(body: Record<string, unknown> = {}) {
  const payment = await api.post("/payment/confirm", { key: shop.apiKey, body: { externalId: externalId(), amount: "25.00", currency: "EUR" } });
  const refund = await api.post("/refund", { key: shop.apiKey, body: { paymentId: payment.body.id, amount: "12.50", claim: { instructions: "Your IBAN, please" }, ...body } });
  expect(refund.status, JSON.stringify(refund.body)).toBe(201);
  return { id: refund.body.id as string, token: (refund.body.claimUrl as string).split("/refund/")[1]! };
}

const ip = (n: number) => `203.0.113.${n}`;
const load = (token: string, from = ip(1)) =>
  claimPage(new Request(`http://localhost/refund/${token}`, { headers: { "x-forwarded-for": from } }), { params: Promise.resolve({ token }) });
const submit = (token: string, fields: Record<string, string>, from = ip(1)) =>
  claimSubmit(
    new Request(`http://localhost/refund/${token}`, {
      method: "POST",
      headers: { "x-forwarded-for": from, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    }),
    { params: Promise.resolve({ token }) },
  );

describe("the refund claim page", () => {
  it("shows the merchant, amount and instructions; a claim records the destination once and sends refund.claimed", async () => {
    const { id, token } = await claimLink();
    const page = await load(token);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Kaffee &amp; Co is refunding €12.50");
    expect(html).toContain("Your IBAN, please");
    expect(page.headers.get("content-security-policy")).toContain("form-action 'self'");
    expect(page.headers.get("referrer-policy")).toBe("same-origin");

    const claimed = await submit(token, { destination: "DE89 3704 0044 0532 0130 00" });
    expect(claimed.status).toBe(200);
    expect(await claimed.text()).toContain("will send the refund to DE89 3704 0044 0532 0130 00");
    const refund = (await api.get(`/refund/${id}`, { key: shop.apiKey })).body;
    expect(refund).toMatchObject({ status: "pending", destination: "DE89 3704 0044 0532 0130 00" });

    const before = await countRows();
    const twice = await submit(token, { destination: "somewhere else" });
    expect(twice.status).toBe(409);
    expect(await twice.text()).toContain("already received; nothing was changed");
    expect(await countRows()).toEqual(before);
    expect((await api.get(`/refund/${id}`, { key: shop.apiKey })).body.destination).toBe("DE89 3704 0044 0532 0130 00");
    const emitted = await runtime.database.db.select().from(events).where(eq(events.subjectId, id));
    expect(emitted.map((event) => event.type).sort()).toEqual(["refund.claimed", "refund.created"]);

    await api.post(`/refund/${id}`, { key: shop.apiKey, body: { status: "succeeded" } });
    expect(await (await load(token)).text()).toContain("has sent your refund to DE89");
  });

  it("an empty or too long destination is refused with the reason and writes nothing", async () => {
    const { token } = await claimLink();
    for (const destination of ["", "   ", "x".repeat(201)]) {
      const before = await countRows();
      const answer = await submit(token, { destination });
      expect(answer.status).toBe(400);
      expect(await answer.text()).toContain("Check what you entered");
      expect(await countRows()).toEqual(before);
    }
  });

  it("after expiry the claim changes nothing and says why", async () => {
    const { id, token } = await claimLink({ claim: { expiresIn: 3600 } });
    runtime.advanceTime(3_601_000);
    expect(await (await load(token)).text()).toContain("has expired or was cancelled");
    const before = await countRows();
    const late = await submit(token, { destination: "DE89 3704 0044 0532 0130 00" });
    expect(late.status).toBe(410);
    expect(await late.text()).toContain("expired before your details were received");
    expect(await countRows()).toEqual(before);
    expect((await api.get(`/refund/${id}`, { key: shop.apiKey })).body.status).toBe("requires_action");
  });

  it("unknown and malformed tokens are one plain 404", async () => {
    for (const token of ["nope", "A".repeat(43)]) {
      const answer = await load(token);
      expect(answer.status).toBe(404);
      expect(await answer.text()).toContain("Refund link not found");
      expect((await submit(token, { destination: "x" })).status).toBe(404);
    }
  });

  it("the form is rate-limited per address: 429 past the claim budget, another payer unaffected", async () => {
    const { token } = await claimLink();
    for (let i = 0; i < REFUND_CLAIM_LIMIT.limit; i++) await submit(token, { destination: "" }, ip(99));
    const refused = await submit(token, { destination: "DE89" }, ip(99));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await submit(token, { destination: "DE89 3704" }, ip(98))).status).toBe(200);
  });
});
