import { describe, expect, it } from "vitest";
import type { RefundClaimView } from "@/server/services/refunds/claim-view";
import type { PageLocale } from "./locale";
import { CLAIM_HEADERS, renderClaimPage } from "./render-claim";

const EN: PageLocale = { language: "en", format: "en-US" };
const view: RefundClaimView = {
  merchantName: `Evil "Shop" <script>alert(1)</script>`,
  amount: "0.01000000",
  currency: "BTC",
  instructions: "Send your <b>address</b>",
  status: "open",
  needsNetwork: true,
  destination: null,
  expiresAt: "2026-11-29T12:00:00.000Z",
};

describe("renderClaimPage", () => {
  it("shows the merchant, the amount, the instructions and a labelled form posting to itself; escapes everything", () => {
    const html = renderClaimPage(view, EN);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>address</b>");
    expect(html).toContain("Send your &lt;b&gt;address&lt;/b&gt;");
    expect(html).toContain('<form class="claim-form" method="post"');
    expect(html).toContain('<label for="destination">');
    expect(html).toContain('maxlength="200"');
    expect(html).toContain('<label for="network">');
    expect(html).toContain("This link works until November 29, 2026");
  });

  it("asks no network for a fiat refund, and speaks the payer's language", () => {
    const html = renderClaimPage({ ...view, currency: "EUR", amount: "12.50", needsNetwork: false }, { language: "de", format: "de-DE" });
    expect(html).not.toContain('id="network"');
    expect(html).toContain("12,50\u00a0€");
    expect(html).toContain('<html lang="de">');
  });

  it("after the claim shows only the status; a refusal says why", () => {
    const claimed = renderClaimPage({ ...view, status: "claimed", destination: "bc1q<x>" }, EN);
    expect(claimed).not.toContain("<form");
    expect(claimed).toContain("will send the refund to bc1q&lt;x&gt;");
    const twice = renderClaimPage({ ...view, status: "claimed", destination: "bc1q" }, EN, { notice: { kind: "already" } });
    expect(twice).toContain("Your details were already received; nothing was changed.");
    const expired = renderClaimPage({ ...view, status: "expired" }, EN, { notice: { kind: "expired" } });
    expect(expired).toContain("This link expired before your details were received");
  });

  it("allows no script and posts only to itself", () => {
    expect(CLAIM_HEADERS["content-security-policy"]).toContain("form-action 'self'");
    expect(CLAIM_HEADERS["content-security-policy"]).not.toContain("script-src");
    // Same-origin only: the token never goes to another site in a Referer, and the form's POST carries a real Origin.
    expect(CLAIM_HEADERS["referrer-policy"]).toBe("same-origin");
    expect(renderClaimPage(view, EN)).toContain('<meta name="referrer" content="same-origin">');
  });
});
