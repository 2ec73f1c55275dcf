import { randomBytes } from "node:crypto";
import { expect, test, type BrowserContext, type Page, type TestInfo } from "@playwright/test";
import { expectAccessible, screenshot } from "../dashboard/helpers";
import { sdk } from "./sdk";

/**
 * The checkout page a payer acts on (docs/invoices.md): every state in words, every kind of payment method with
 * its values, copy buttons and QR code, in the payer's language, at phone and desktop widths, with and without
 * JavaScript. Screenshots land in test-results/e2e/screenshots/checkout-*.png.
 */
const WIDTHS = [390, 1280] as const;
const IBAN = "DE89370400440532013000";
const BTC = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
const ETH = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const SOL = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";

interface Shop {
  name: string;
  apiKey: string;
  invoices: Record<"eur" | "btc" | "usdc" | "sol" | "processing" | "paid" | "void", { id: string; expiresAt: string }>;
}
let shop: Shop;

/**
 * The page of an invoice that expires in a minute (the shortest expiry an invoice takes), opened before the file's
 * other tests and left open while they run: the last test checks it turned to expired by itself, after waiting out
 * what is left of the minute rather than the whole of it.
 */
let expiring: { context: BrowserContext; page: Page; expiresAt: string };

test.beforeAll(async ({ baseURL, browser }) => {
  const suffix = randomBytes(4).toString("hex");
  const registered = await sdk(baseURL, undefined, { "x-forwarded-for": `10.${randomBytes(3).join(".")}` }).POST("/merchant/register", {
    body: { name: `Kaffeerösterei ${suffix}`, email: `checkout-states-${suffix}@e2e.example`, password: `e2e password ${suffix}`, website: "https://roastery.example/contact" },
  });
  expect(registered.response.status).toBe(201);
  const { merchant, apiKey } = registered.data!;
  const mps = sdk(baseURL, apiKey);
  const methods = await mps.PUT("/merchant/{id}/payment-methods", {
    params: { path: { id: merchant.id } },
    body: {
      methods: [
        { type: "bank_transfer", accountHolder: "Kaffeerösterei GmbH", iban: "DE89 3704 0044 0532 0130 00", bic: "COBADEFFXXX" },
        { type: "crypto", network: "bitcoin", asset: "BTC", address: BTC },
        { type: "crypto", network: "ethereum", asset: "USDC", address: ETH },
        { type: "crypto", network: "solana", asset: "SOL", address: SOL },
        { type: "link", label: "Pay with PayPal", url: "https://paypal.example/roastery" },
      ],
    },
  });
  expect(methods.response.status, JSON.stringify(methods.error)).toBe(200);
  await mps.PUT("/merchant/{id}", { params: { path: { id: merchant.id } }, body: { paymentInstructions: "Questions? Write to orders@roastery.example." } });

  const create = async (amount: string, currency: string, expiresIn = 3600) => {
    const created = await mps.POST("/invoice", {
      body: { amount, currency, expiresIn, description: "Two bags of coffee", returnUrl: "https://roastery.example/orders/7" },
    });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    return { id: created.data!.id, expiresAt: created.data!.expiresAt };
  };
  const pay = async (invoiceId: string, amount: string, currency: string, status: "pending" | "confirmed") => {
    const paid = await mps.POST("/payment/confirm", { body: { externalId: `tx-${randomBytes(6).toString("hex")}`, amount, currency, invoiceId, status } });
    expect(paid.response.status, JSON.stringify(paid.error)).toBe(201);
  };
  const invoices = {
    eur: await create("24.50", "EUR"),
    btc: await create("0.00123", "BTC"),
    usdc: await create("19.99", "USDC"),
    sol: await create("1.5", "SOL"),
    processing: await create("24.50", "EUR"),
    paid: await create("15693", "JPY"),
    void: await create("24.50", "EUR"),
  };
  await pay(invoices.eur.id, "10.00", "EUR", "confirmed");
  await pay(invoices.processing.id, "24.50", "EUR", "pending");
  await pay(invoices.paid.id, "15693", "JPY", "confirmed");
  expect((await mps.POST("/invoice/{id}/void", { params: { path: { id: invoices.void.id } } })).response.status).toBe(200);
  shop = { name: merchant.name, apiKey, invoices };

  const soon = await mps.POST("/invoice", { body: { amount: "12.00", currency: "EUR", expiresIn: 60, returnUrl: "https://roastery.example/orders/8" } });
  expect(soon.response.status, JSON.stringify(soon.error)).toBe(201);
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await asPayer(page, 1280);
  await page.goto(`/pay/${soon.data!.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay €12.00");
  expiring = { context, page, expiresAt: soon.data!.expiresAt };
});

test.afterAll(async () => {
  await expiring?.context.close();
});

/** Each test pays from an address of its own: the checkout budget is per payer IP (120 loads a minute). */
async function asPayer(page: Page, width: number) {
  await page.setViewportSize({ width, height: 900 });
  await page.setExtraHTTPHeaders({ "x-forwarded-for": `10.${randomBytes(3).join(".")}` });
}

async function check(page: Page, testInfo: TestInfo, name: string, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), "nothing wider than the screen").toBeLessThanOrEqual(width);
  await expectAccessible(page);
  await screenshot(page, testInfo, `checkout-${name}-${width}`);
}

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test("open, partly paid: the amount still due, the bank transfer with its GiroCode, the note, the reference", async ({ page }, testInfo) => {
      await asPayer(page, width);
      await page.goto(`/pay/${shop.invoices.eur.id}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay €14.50");
      await expect(page.getByText("€10.00 of €24.50 received. Still to pay: €14.50.")).toBeVisible();
      await expect(page.getByTestId("checkout-status")).toHaveText("Awaiting payment · Partly paid");
      const bank = page.getByTestId("checkout-method-bank_transfer");
      await expect(bank).toHaveAttribute("open", "");
      await expect(bank).toContainText("DE89 3704 0044 0532 0130 00");
      await expect(bank).toContainText("COBADEFFXXX");
      await expect(bank.getByRole("img", { name: "QR code of a SEPA transfer of €14.50 to Kaffeerösterei GmbH" })).toBeVisible();
      // Crypto methods of other assets are not offered on a EUR invoice; the link is.
      await expect(page.getByTestId("checkout-method-crypto")).toHaveCount(0);
      await expect(page.getByTestId("checkout-method-link")).toHaveCount(1);
      await expect(page.getByText("Questions? Write to orders@roastery.example.")).toBeVisible();
      await expect(page.getByTestId("checkout-reference")).toContainText(shop.invoices.eur.id);
      await check(page, testInfo, "open-bank", width);

      // The payer picks another method: one panel open at a time, no script needed for it.
      await page.getByText("Pay with PayPal", { exact: true }).first().click();
      const link = page.getByTestId("checkout-method-link");
      await expect(link).toHaveAttribute("open", "");
      await expect(bank).not.toHaveAttribute("open", "");
      await expect(link.getByRole("link", { name: "Pay with PayPal" })).toHaveAttribute("href", "https://paypal.example/roastery");
      await check(page, testInfo, "open-link", width);
    });

    for (const [key, asset, network, uri] of [
      ["btc", "BTC", "Bitcoin", `bitcoin:${BTC}?amount=0.00123&`],
      ["usdc", "USDC", "Ethereum", `ethereum:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48@1/transfer?address=${ETH}&uint256=19990000`],
      ["sol", "SOL", "Solana", `solana:${SOL}?amount=1.5&`],
    ] as const) {
      test(`open in ${asset}: the ${network} address, its QR and the wallet link with the exact amount`, async ({ page }, testInfo) => {
        await asPayer(page, width);
        await page.goto(`/pay/${shop.invoices[key].id}`);
        const crypto = page.getByTestId("checkout-method-crypto");
        await expect(crypto).toHaveAttribute("open", "");
        await expect(crypto.locator("summary")).toHaveText(`${asset} on ${network}`);
        await expect(crypto).toContainText(`Send only ${asset} on the ${network} network`);
        await expect(crypto.getByRole("img", { name: new RegExp(`^QR code of a payment of .+ to this ${network} address$`) })).toBeVisible();
        expect(await crypto.getByRole("link", { name: "Open in your wallet app" }).getAttribute("href")).toContain(uri);
        await expect(page.getByTestId("checkout-method-bank_transfer")).toHaveCount(0);
        await check(page, testInfo, `open-${key}`, width);
      });
    }

    test("processing: what is being confirmed, and no way to pay twice", async ({ page }, testInfo) => {
      await asPayer(page, width);
      await page.goto(`/pay/${shop.invoices.processing.id}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment being confirmed");
      await expect(page.getByText("€24.50 received and being confirmed. You do not need to pay again")).toBeVisible();
      await expect(page.getByTestId("checkout-pending")).toHaveText("€24.50");
      await expect(page.getByTestId("checkout-methods")).toHaveCount(0);
      await check(page, testInfo, "processing", width);
    });

    test("paid: Paid, when, and the way back; yen written as yen", async ({ page }, testInfo) => {
      await asPayer(page, width);
      await page.goto(`/pay/${shop.invoices.paid.id}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Paid");
      await expect(page.getByTestId("checkout-paid")).toHaveText("¥15,693");
      await expect(page.getByTestId("checkout-paid-at")).toContainText(/received your payment on \w+ \d+, \d{4} at .+ UTC/);
      await expect(page.getByRole("link", { name: `Return to ${shop.name}` })).toHaveAttribute("href", "https://roastery.example/orders/7");
      await expect(page.getByTestId("checkout-methods")).toHaveCount(0);
      await check(page, testInfo, "paid", width);
    });

    test("void: do not pay, whom to contact, the way back", async ({ page }, testInfo) => {
      await asPayer(page, width);
      await page.goto(`/pay/${shop.invoices.void.id}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Invoice cancelled");
      await expect(page.getByText(`${shop.name} cancelled this invoice. Please do not pay it.`)).toBeVisible();
      await expect(page.getByTestId("checkout-contact").getByRole("link", { name: "roastery.example" })).toHaveAttribute("href", "https://roastery.example/contact");
      await expect(page.getByRole("link", { name: `Return to ${shop.name}` })).toBeVisible();
      await expect(page.getByTestId("checkout-methods")).toHaveCount(0);
      await check(page, testInfo, "void", width);
    });
  });
}

test.describe("a German browser", () => {
  // The browser's locale is what it sends as Accept-Language.
  test.use({ locale: "de-DE" });
  test("the payer's language: Accept-Language first, then the switcher, money in the payer's format", async ({ page }, testInfo) => {
    await asPayer(page, 390);
    await page.goto(`/pay/${shop.invoices.eur.id}`);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("14,50 € bezahlen");
    await expect(page.getByTestId("checkout-method-bank_transfer").locator("summary")).toHaveText("Überweisung");
    await check(page, testInfo, "open-de", 390);
    for (const [name, heading] of [["Français", "Payer 14,50 €"], ["Español", "Pagar 14,50 €"], ["English", "Pay €14.50"]] as const) {
      await page.getByRole("navigation", { name: /Sprache|Langue|Idioma|Language/ }).getByRole("link", { name }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    }
    await page.goto(`/pay/${shop.invoices.void.id}?lang=es`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Factura anulada");
    await check(page, testInfo, "void-es", 390);
  });
});

test("copy buttons copy the value a payer types elsewhere (the IBAN without spaces)", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await asPayer(page, 390);
  await page.goto(`/pay/${shop.invoices.eur.id}`);
  const copyIban = page.getByRole("button", { name: "Copy IBAN" });
  await copyIban.click();
  await expect(copyIban).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(IBAN);
  await page.getByTestId("checkout-reference").getByRole("button").click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shop.invoices.eur.id);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("every method can be picked and read; no dead copy buttons", async ({ page }, testInfo) => {
    await asPayer(page, 390);
    await page.goto(`/pay/${shop.invoices.eur.id}`);
    await expect(page.getByRole("button", { name: "Copy IBAN" })).toBeHidden();
    await expect(page.getByTestId("checkout-method-bank_transfer")).toContainText("DE89 3704 0044 0532 0130 00");
    await page.getByTestId("checkout-method-link").locator("summary").click();
    await expect(page.getByTestId("checkout-method-link").getByRole("link", { name: "Pay with PayPal" })).toBeVisible();
    await page.getByRole("link", { name: "Deutsch" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("14,50 € bezahlen");
    await screenshot(page, testInfo, "checkout-no-js-390");
  });
});

// Playwright reads the fixtures a test uses from its first parameter, which must be a destructuring pattern: none here.
// eslint-disable-next-line no-empty-pattern
test("an open page turns to expired by itself, then says what the payer can do", async ({}, testInfo) => {
  test.setTimeout(150_000);
  const { page, expiresAt } = expiring;
  const wait = Date.parse(expiresAt) - Date.now();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Invoice expired", { timeout: Math.max(0, wait) + 5_000 });
  await expect(page.getByText("can no longer be paid here")).toBeVisible();
  await expect(page.getByText(`If you have already paid, or still want to order, contact ${shop.name}`)).toBeVisible();
  await expect(page.getByTestId("checkout-contact")).toBeVisible();
  await expect(page.getByRole("link", { name: `Return to ${shop.name}` })).toBeVisible();
  await expect(page.getByTestId("checkout-methods")).toHaveCount(0);
  await check(page, testInfo, "expired", 1280);
  await page.setViewportSize({ width: 390, height: 900 });
  await check(page, testInfo, "expired", 390);
});
