import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Checkout } from "@/server/services/invoices/get-checkout";
import { LIVE_SCRIPT } from "./live-script";
import { CHECKOUT_HEADERS, renderCheckoutPage } from "./render-page";

const checkout: Checkout = {
  id: "inv_01jd7z9e4f5g6h7j8k9m0n1p2q",
  merchantName: `Evil "Shop" <script>alert(1)</script>`,
  livemode: true,
  description: "<img src=x onerror=alert(1)>",
  amount: "24.50",
  currency: "EUR",
  amountPaid: "0.00",
  amountPending: "0.00",
  amountRemaining: "24.50",
  status: "open",
  statusDetail: null,
  expiresAt: "2026-11-22T13:00:00.000Z",
  paidAt: null,
  returnUrl: null,
  paymentInstructions: "IBAN <b>DE02</b>",
  serverTime: "2026-11-22T12:00:00.000Z",
};

describe("renderCheckoutPage", () => {
  it("tells the payer when an invoice is test data, and says nothing of test mode on a live one", () => {
    expect(renderCheckoutPage(checkout)).not.toContain("checkout-test-mode");
    expect(renderCheckoutPage({ ...checkout, livemode: false })).toContain("Test mode: this invoice is test data and no real money moves.");
  });

  it("escapes every value the merchant or payer controls, so none of it becomes markup", () => {
    const html = renderCheckoutPage(checkout);
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("<b>DE02</b>");
    expect(html).toContain("Evil &quot;Shop&quot; &lt;script&gt;alert(1)&lt;/script&gt;");
    // One script only: the live one.
    expect(html.match(/<script>/g)).toHaveLength(1);
  });

  it("shows the countdown on the server's clock and hides the return link until the payer is done", () => {
    const html = renderCheckoutPage(checkout);
    expect(html).toContain(">1:00:00<");
    expect(html).toContain('<p data-show="return" hidden>');
    const paid = renderCheckoutPage({ ...checkout, status: "paid", amountPaid: "24.50", amountRemaining: "0.00", returnUrl: "https://shop.example/?a=1&b=2" });
    expect(paid).toContain('href="https://shop.example/?a=1&amp;b=2"');
    expect(paid).toContain('<p data-show="waiting" hidden>');
  });

  it("allows exactly the live script by its hash in the content security policy", () => {
    const hash = createHash("sha256").update(LIVE_SCRIPT).digest("base64");
    expect(CHECKOUT_HEADERS["content-security-policy"]).toContain(`script-src 'sha256-${hash}'`);
    expect(CHECKOUT_HEADERS["referrer-policy"]).toBe("no-referrer");
  });
});
