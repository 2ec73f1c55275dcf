import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Checkout } from "@/server/services/invoices/get-checkout";
import { offeredMethods } from "@/server/services/payment-methods/offer";
import { LIVE_SCRIPT } from "./live-script";
import type { PageLocale } from "./locale";
import { CHECKOUT_HEADERS, renderCheckoutPage } from "./render-page";

const EN: PageLocale = { language: "en", format: "en-US" };
const checkout: Checkout = {
  id: "inv_01jd7z9e4f5g6h7j8k9m0n1p2q",
  merchantName: `Evil "Shop" <script>alert(1)</script>`,
  merchantWebsite: "https://shop.example/contact",
  livemode: true,
  description: "<img src=x onerror=alert(1)>",
  amount: "24.50",
  currency: "EUR",
  amountPaid: "0.00",
  amountPending: "0.00",
  amountRefunded: "0.00",
  amountRemaining: "24.50",
  amountDue: "24.50",
  status: "open",
  statusDetail: null,
  expiresAt: "2026-11-22T13:00:00.000Z",
  paidAt: null,
  returnUrl: null,
  paymentMethods: [],
  paymentInstructions: "IBAN <b>DE02</b>",
  serverTime: "2026-11-22T12:00:00.000Z",
};
const withMethods = (base: Checkout): Checkout => ({
  ...base,
  paymentMethods: offeredMethods(
    [
      { type: "bank_transfer", accountHolder: "Acme <Kaffee>", iban: "DE89370400440532013000", bic: null },
      { type: "link", label: "Pay with <PayPal>", url: "https://paypal.example/acme?a=1&b=2" },
    ],
    { invoiceId: base.id, currency: base.currency, amountDue: base.amountDue, merchantName: base.merchantName },
  ),
});

describe("renderCheckoutPage", () => {
  it("tells the payer when an invoice is test data, and says nothing of test mode on a live one", async () => {
    expect(await renderCheckoutPage(checkout, EN)).not.toContain("checkout-test-mode");
    expect(await renderCheckoutPage({ ...checkout, livemode: false }, EN)).toContain("Test mode: this invoice is test data and no real money moves.");
  });

  it("escapes every value the merchant or payer controls, so none of it becomes markup", async () => {
    const html = await renderCheckoutPage(withMethods(checkout), EN);
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("<b>DE02</b>");
    expect(html).not.toContain("<Kaffee>");
    expect(html).not.toContain("<PayPal>");
    expect(html).toContain("Evil &quot;Shop&quot; &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain('href="https://paypal.example/acme?a=1&amp;b=2"');
    // One script only: the live one.
    expect(html.match(/<script>/g)).toHaveLength(1);
  });

  it("formats money for the currency and the payer's locale, never as `amount CODE`", async () => {
    const yen = { ...checkout, amount: "15693", currency: "JPY", amountRemaining: "15693", amountDue: "15693", amountPaid: "0" };
    expect(await renderCheckoutPage(yen, EN)).toContain("<h1>Pay ¥15,693</h1>");
    expect(await renderCheckoutPage(checkout, { language: "de", format: "de-DE" })).toContain("<h1>24,50\u00a0€ bezahlen</h1>");
    const eth = { ...checkout, amount: "1.123456789012345678", currency: "ETH", amountRemaining: "1.123456789012345678", amountDue: "1.123456789012345678", amountPaid: "0.000000000000000000" };
    expect(await renderCheckoutPage(eth, EN)).toContain("1.123456789012345678");
  });

  it("says each state in words: paid with its time and the way back, expired and void with whom to contact", async () => {
    const paid = await renderCheckoutPage(
      { ...checkout, status: "paid", amountPaid: "24.50", amountRemaining: "0.00", amountDue: "0.00", paidAt: "2026-11-22T12:30:00.000Z", returnUrl: "https://shop.example/?a=1&b=2" },
      EN,
    );
    expect(paid).toContain("<h1>Paid</h1>");
    expect(paid).toContain("November 22, 2026 at 12:30 PM UTC");
    expect(paid).toContain('href="https://shop.example/?a=1&amp;b=2"');
    expect(paid).not.toContain('role="timer"');
    expect(paid).not.toContain("How to pay");

    const expired = await renderCheckoutPage({ ...checkout, status: "expired" }, EN);
    expect(expired).toContain("<h1>Invoice expired</h1>");
    expect(expired).toContain('href="https://shop.example/contact"');
    const cancelled = await renderCheckoutPage({ ...checkout, status: "void" }, { language: "fr", format: "fr-FR" });
    expect(cancelled).toContain("<h1>Facture annulée</h1>");
    expect(cancelled).toContain('<html lang="fr">');

    const processing = await renderCheckoutPage({ ...checkout, status: "processing", amountPending: "24.50", amountDue: "0.00" }, EN);
    expect(processing).toContain("€24.50 received and being confirmed");
    expect(processing).toContain('data-testid="checkout-pending"');
  });

  it("tells the payer of a refunded invoice that money went back, and how much", async () => {
    const refunded = await renderCheckoutPage(
      { ...checkout, status: "paid", amountPaid: "24.50", amountRefunded: "10.00", amountRemaining: "0.00", amountDue: "0.00", paidAt: "2026-11-22T12:30:00.000Z" },
      EN,
    );
    expect(refunded).toContain("<h1>Refunded</h1>");
    expect(refunded).toContain("refunded your payment for this invoice");
    expect(refunded).toMatch(/data-testid="checkout-refunded">€10.00</);
    expect(await renderCheckoutPage({ ...checkout, status: "paid", amountRefunded: "10.00" }, { language: "de", format: "de-DE" })).toContain("<h1>Erstattet</h1>");
  });

  it("offers the methods with copy buttons and a GiroCode QR while open; the first is open without a script", async () => {
    const html = await renderCheckoutPage(withMethods(checkout), EN);
    expect(html).toContain('<details class="method" name="payment-method" data-method="0" data-testid="checkout-method-bank_transfer" open>');
    expect(html).toContain("DE89 3704 0044 0532 0130 00");
    expect(html).toContain('data-copy="DE89370400440532013000"');
    expect(html).toMatch(/<div role="img" aria-label="QR code of a SEPA transfer of €24.50 to Acme &lt;Kaffee&gt;"><svg aria-hidden="true"/);
    expect(html).toContain(`data-copy="${checkout.id}"`);
  });

  it("gives the live script only what it needs to follow the invoice", async () => {
    const html = await renderCheckoutPage(withMethods(checkout), EN);
    const state = JSON.parse(html.match(/data-checkout="([^"]*)"/)![1]!.replaceAll("&quot;", '"'));
    expect(Object.keys(state).sort()).toEqual(["amountPaid", "amountPending", "expiresAt", "id", "serverTime", "status", "statusDetail"]);
  });

  it("allows exactly the live script by its hash in the content security policy", () => {
    const hash = createHash("sha256").update(LIVE_SCRIPT).digest("base64");
    expect(CHECKOUT_HEADERS["content-security-policy"]).toContain(`script-src 'sha256-${hash}'`);
    expect(CHECKOUT_HEADERS["referrer-policy"]).toBe("no-referrer");
  });
});
