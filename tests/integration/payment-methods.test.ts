import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as checkoutPage } from "../../src/app/pay/[invoiceId]/route";
import { auditLog, paymentMethods } from "../../src/server/db/schema";
import { testClient, type TestClient } from "../support/client";
import { dashboardAs, merchantSession, STAFF_SESSION } from "../support/dashboard";
import { createTestKey, registerTestMerchant, type TestMerchant } from "../support/merchants";
import { externalId } from "../support/payments";
import { createTestRuntime, type TestRuntime } from "../support/runtime";

/**
 * Payment methods (docs/invoices.md, "Payment methods"): set per mode over REST and the dashboard, checked per
 * field, and shown on an invoice's checkout only while it is open, only those that can pay it, only its mode's,
 * only its merchant's.
 */
let runtime: TestRuntime;
let api: TestClient;
let shop: TestMerchant;
let other: TestMerchant;
let testKey: string;
const runtimeRef = globalThis as typeof globalThis & { __mpsRuntime?: Promise<unknown> };

const ETH = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const BTC = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
const LIVE_METHODS = [
  { type: "bank_transfer", accountHolder: "Acme Kaffee GmbH", iban: "de89 3704 0044 0532 0130 00", bic: "cobadeffxxx" },
  { type: "crypto", network: "bitcoin", asset: "BTC", address: BTC },
  { type: "crypto", network: "ethereum", asset: "USDC", address: ETH.toLowerCase() },
  { type: "link", label: "Pay with PayPal", url: "https://paypal.example/acme" },
];
const TEST_IBAN = "GB82WEST12345698765432";
const OTHER_IBAN = "FR1420041010050500013M02606";

beforeAll(async () => {
  runtime = await createTestRuntime({ env: { RATE_LIMIT_PER_KEY: "10000", RATE_LIMIT_PER_IP: "10000" } });
  runtimeRef.__mpsRuntime = Promise.resolve(runtime);
  api = testClient(runtime);
  shop = await registerTestMerchant(api, { website: "https://acme.example/help" });
  other = await registerTestMerchant(api);
  testKey = await createTestKey(api, shop);
});
afterAll(async () => {
  runtimeRef.__mpsRuntime = undefined;
  await runtime?.close();
});

const path = (merchant: TestMerchant) => `/merchant/${merchant.merchant.id}/payment-methods`;
const put = (methods: unknown[], key = shop.apiKey, merchant = shop) => api.put(path(merchant), { key, body: { methods } });
const invoice = async (body: Record<string, unknown>, key = shop.apiKey) => {
  const created = await api.post("/invoice", { key, body: { orderId: externalId("order"), metadata: { secret: "internal-note" }, ...body } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
};
const page = (id: string, headers: Record<string, string> = {}, query = "") =>
  checkoutPage(new Request(`http://localhost/pay/${id}${query}`, { headers }), { params: Promise.resolve({ invoiceId: id }) });

describe("PUT /merchant/{id}/payment-methods", () => {
  it("replaces the key's mode's list in order, normalised (IBAN, BIC, EIP-55), audited without account numbers", async () => {
    const set = await put(LIVE_METHODS);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toEqual({
      livemode: true,
      methods: [
        { type: "bank_transfer", accountHolder: "Acme Kaffee GmbH", iban: "DE89370400440532013000", bic: "COBADEFFXXX" },
        { type: "crypto", network: "bitcoin", asset: "BTC", address: BTC },
        { type: "crypto", network: "ethereum", asset: "USDC", address: ETH },
        { type: "link", label: "Pay with PayPal", url: "https://paypal.example/acme" },
      ],
    });
    expect((await api.get(path(shop), { key: shop.apiKey })).body).toEqual(set.body);
    const [entry] = await runtime.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.merchantId, shop.merchant.id), eq(auditLog.action, "payment_methods.updated")));
    expect(entry).toMatchObject({ actorType: "api_key", details: { livemode: true, types: ["bank_transfer", "crypto", "crypto", "link"] } });
    expect(JSON.stringify(entry!.details)).not.toContain("DE89");

    // The same list again changes nothing and writes nothing.
    await put(LIVE_METHODS);
    const entries = await runtime.database.db.select().from(auditLog).where(and(eq(auditLog.merchantId, shop.merchant.id), eq(auditLog.action, "payment_methods.updated")));
    expect(entries).toHaveLength(1);
  });

  it("refuses bad fields with 400 validation_failed naming each one, and keeps the list as it was", async () => {
    const refused = await put([
      { type: "bank_transfer", accountHolder: "Acme", iban: "DE88370400440532013000" },
      { type: "crypto", network: "ethereum", asset: "BTC", address: ETH.replace("aA", "Aa") },
      { type: "link", label: "Pay", url: "http://paypal.example/acme" },
    ]);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("validation_failed");
    expect(refused.body.errors).toEqual([
      { path: "body.methods.0.iban", message: "IBAN has wrong check digits: check every character" },
      { path: "body.methods.1.asset", message: 'ethereum carries ETH, USDC, USDT, DAI here, not "BTC"' },
      { path: "body.methods.1.address", message: expect.stringContaining("EIP-55") },
      { path: "body.methods.2.url", message: "must be an https URL" },
    ]);
    expect((await api.get(path(shop), { key: shop.apiKey })).body.methods).toHaveLength(4);
  });

  it("answers 404 for another merchant's id and 401 without a key", async () => {
    expect((await put([], shop.apiKey, other)).status).toBe(404);
    expect((await api.get(path(other), { key: shop.apiKey })).status).toBe(404);
    expect((await api.get(path(shop))).status).toBe(401);
  });

  it("keeps test mode's list apart: a test key and the dashboard's switch edit the test list only", async () => {
    const set = await put([{ type: "bank_transfer", accountHolder: "Acme Sandbox", iban: TEST_IBAN }], testKey);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ livemode: false, methods: [{ iban: TEST_IBAN, bic: null }] });
    expect((await api.get(path(shop), { key: shop.apiKey })).body.methods).toHaveLength(4);
    const dashboardTest = dashboardAs(runtime, merchantSession(shop), { livemode: false });
    expect((await dashboardTest.merchants.paymentMethods()).methods).toEqual(set.body.methods);
    expect((await dashboardAs(runtime, merchantSession(shop)).merchants.paymentMethods()).methods).toHaveLength(4);
  });

  it("in the dashboard: tRPC field errors carry the same paths; support staff cannot change a merchant's methods", async () => {
    const dashboard = dashboardAs(runtime, merchantSession(other));
    await expect(dashboard.merchants.setPaymentMethods({ methods: [{ type: "crypto", network: "solana", asset: "SOL", address: "0OIl" }] })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      cause: { code: "validation_failed", errors: [{ path: "input.methods.0.address", message: expect.stringContaining("base58") }] },
    });
    const saved = await dashboard.merchants.setPaymentMethods({ methods: [{ type: "bank_transfer", accountHolder: "Other", iban: OTHER_IBAN }] });
    expect(saved.methods).toHaveLength(1);
    await expect(dashboardAs(runtime, STAFF_SESSION).merchants.setPaymentMethods({ methods: [] })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("two saves at once apply one after the other: the list is one of them whole, never a mix", async () => {
    const lists = Array.from({ length: 8 }, (_, i) =>
      Array.from({ length: (i % 3) + 1 }, (_, j) => ({ type: "link", label: `Race ${i}.${j}`, url: `https://pay.example/${i}/${j}` })),
    );
    const answers = await Promise.all(lists.map((list) => put(list, testKey, shop)));
    expect(answers.map((answer) => answer.status)).toEqual(lists.map(() => 200));
    const final = (await api.get(path(shop), { key: testKey })).body.methods.map((method: { label: string }) => method.label);
    expect(lists.map((list) => list.map((method) => method.label))).toContainEqual(final);
    const rows = await runtime.database.db
      .select()
      .from(paymentMethods)
      .where(and(eq(paymentMethods.merchantId, shop.merchant.id), eq(paymentMethods.livemode, false)));
    expect(rows).toHaveLength(final.length);
    await put([{ type: "bank_transfer", accountHolder: "Acme Sandbox", iban: TEST_IBAN }], testKey);
  });
});

describe("the checkout offers the published methods that can pay the invoice", () => {
  it("an open EUR invoice: the bank transfer with its GiroCode for the amount due and the link; no crypto of another asset", async () => {
    const id = await invoice({ amount: "24.50", currency: "EUR" });
    const checkout = (await api.get(`/checkout/${id}`)).body;
    expect(checkout).toMatchObject({ amountDue: "24.50", merchantWebsite: "https://acme.example/help" });
    expect(checkout.paymentMethods).toEqual([
      {
        type: "bank_transfer",
        accountHolder: "Acme Kaffee GmbH",
        iban: "DE89370400440532013000",
        bic: "COBADEFFXXX",
        qrPayload: `BCD\n002\n1\nSCT\nCOBADEFFXXX\nAcme Kaffee GmbH\nDE89370400440532013000\nEUR24.50\n\n\n${id}`,
      },
      { type: "link", label: "Pay with PayPal", url: "https://paypal.example/acme", qrPayload: null },
    ]);

    // A pending part is not asked for twice: the QR asks for what is still due.
    await api.post("/payment/confirm", { key: shop.apiKey, body: { externalId: externalId("part"), amount: "10.00", currency: "EUR", invoiceId: id, status: "pending" } });
    expect((await api.get(`/checkout/${id}`)).body.paymentMethods[0].qrPayload).toContain("\nEUR14.50\n");
  });

  it("a BTC invoice: the Bitcoin method with its BIP21 URI; a USDC invoice: EIP-681; banks are not offered for crypto", async () => {
    const btc = (await api.get(`/checkout/${await invoice({ amount: "0.00123", currency: "BTC" })}`)).body;
    expect(btc.paymentMethods.map((method: { type: string }) => method.type)).toEqual(["crypto", "link"]);
    expect(btc.paymentMethods[0].qrPayload).toBe(`bitcoin:${BTC}?amount=0.00123&label=${encodeURIComponent(shop.merchant.name)}&message=${btc.id}`);
    const usdc = (await api.get(`/checkout/${await invoice({ amount: "19.99", currency: "USDC" })}`)).body;
    expect(usdc.paymentMethods[0].qrPayload).toBe(`ethereum:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48@1/transfer?address=${ETH}&uint256=19990000`);
  });

  it("a test invoice shows the test list; a paid, void or expired invoice shows none", async () => {
    const test = (await api.get(`/checkout/${await invoice({ amount: "5.00", currency: "EUR" }, testKey)}`)).body;
    expect(test.paymentMethods).toEqual([expect.objectContaining({ iban: TEST_IBAN })]);

    const paid = await invoice({ amount: "5.00", currency: "EUR" });
    await api.post("/payment/confirm", { key: shop.apiKey, body: { externalId: externalId("paid"), amount: "5.00", currency: "EUR", invoiceId: paid } });
    const voided = await invoice({ amount: "5.00", currency: "EUR" });
    await api.post(`/invoice/${voided}/void`, { key: shop.apiKey });
    for (const id of [paid, voided]) {
      const checkout = (await api.get(`/checkout/${id}`)).body;
      expect(checkout.paymentMethods, checkout.status).toEqual([]);
      const html = await (await page(id)).text();
      expect(html).not.toContain("DE89");
      expect(html).not.toContain("<svg");
    }
  });

  it("the page shows the methods with QR codes, and nothing of the merchant a payer does not need", async () => {
    const id = await invoice({ amount: "24.50", currency: "EUR", description: "Two bags" });
    const response = await page(id, { "accept-language": "de-DE,de;q=0.9,en;q=0.5" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-language")).toBe("de");
    const html = await response.text();
    expect(html).toContain("<h1>24,50\u00a0€ bezahlen</h1>");
    expect(html).toContain("DE89 3704 0044 0532 0130 00");
    expect(html.match(/<svg /g)).toHaveLength(1);
    for (const secret of [shop.merchant.email, "internal-note", "order_", TEST_IBAN, OTHER_IBAN, BTC, ETH, shop.apiKey.slice(0, 12)]) {
      expect(html, secret).not.toContain(secret);
    }
    const french = await (await page(id, { "accept-language": "de" }, "?lang=fr")).text();
    expect(french).toContain("<h1>Payer 24,50\u00a0€</h1>");
    expect(french).toContain('<a href="?lang=fr" hreflang="fr" lang="fr" aria-current="true">Français</a>');
  });
});
