import type { RefundClaimView } from "@/server/services/refunds/claim-view";
import { escape, texts, type Texts } from "./html";
import type { PageLocale } from "./locale";
import { CHECKOUT_HEADERS, pageDocument } from "./render-page";

/**
 * The public refund claim page `/refund/{token}` (docs/refunds.md, "Claim link"): the merchant's name, the amount,
 * the merchant's instructions and a plain form for the destination — then the refund's status. It works without a
 * script (the form posts back to the same URL); every value is escaped and every text comes from the checkout's
 * message catalogue in the payer's language.
 */
export const CLAIM_HEADERS: Record<string, string> = {
  ...CHECKOUT_HEADERS,
  // `same-origin`, not the checkout's `no-referrer`: under no-referrer the browser sends `Origin: null` with the
  // form's POST, which the cross-origin guard refuses. The token still never leaves in a Referer to another site.
  "referrer-policy": "same-origin",
  // The page posts its one form to itself; nothing else may be loaded or sent anywhere.
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
};

/** A refusal to show above the form (the claim changed nothing). */
export type ClaimNotice = { kind: "already" | "expired" } | { kind: "invalid"; problem: string };

export function renderClaimPage(view: RefundClaimView, locale: PageLocale, options: { notice?: ClaimNotice; destination?: string } = {}): string {
  const words = texts(locale);
  const { t } = words;
  const merchant = view.merchantName;
  const amount = words.money(view.amount, view.currency);
  const body =
    `<main class="checkout claim claim-${view.status}">` +
    `<div class="top"><p class="merchant">${escape(merchant)}</p></div>` +
    `<h1>${t("claim.title", { merchant, amount })}</h1>` +
    (options.notice ? `<p class="error" role="alert" data-testid="claim-notice">${noticeText(options.notice, words)}</p>` : "") +
    (view.status === "open" ? openSection(view, words, options.destination) : `<section class="box status-box"><p data-testid="claim-status">${statusText(view, words)}</p></section>`);
  return pageDocument(locale, t("claim.page.title", { merchant }), `${body}</main>`, "same-origin");
}

function openSection(view: RefundClaimView, words: Texts, destination = ""): string {
  const { t } = words;
  const merchant = view.merchantName;
  return (
    (view.instructions
      ? `<section class="box note" aria-labelledby="instructions-heading"><h2 id="instructions-heading">${t("claim.instructions", { merchant })}</h2><p>${escape(view.instructions)}</p></section>`
      : "") +
    `<section class="box"><p>${t("claim.open", { merchant })}</p>` +
    `<form class="claim-form" method="post" data-testid="claim-form">` +
    `<label for="destination">${t("claim.destination")}</label><p class="hint" id="destination-hint">${t("claim.destination.hint")}</p>` +
    `<input id="destination" name="destination" required maxlength="200" autocomplete="off" aria-describedby="destination-hint" value="${escape(destination)}">` +
    (view.needsNetwork
      ? `<label for="network">${t("claim.network")}</label><p class="hint" id="network-hint">${t("claim.network.hint", { currency: view.currency })}</p>` +
        `<input id="network" name="network" required maxlength="64" autocomplete="off" aria-describedby="network-hint">`
      : "") +
    `<button type="submit">${t("claim.submit")}</button></form>` +
    (view.expiresAt ? `<p class="hint">${t("claim.expires", { time: words.time(view.expiresAt) })}</p>` : "") +
    `</section>`
  );
}

function statusText(view: RefundClaimView, words: Texts): string {
  const values = { merchant: view.merchantName, destination: view.destination ?? "" };
  switch (view.status) {
    case "claimed":
      return words.t("claim.status.claimed", values);
    case "sent":
      return words.t("claim.status.sent", values);
    case "failed":
      return words.t("claim.status.failed", values);
    default:
      return words.t("claim.status.expired", values);
  }
}

function noticeText(notice: ClaimNotice, words: Texts): string {
  if (notice.kind === "invalid") return words.t("claim.error.invalid", { problem: notice.problem });
  return words.t(notice.kind === "already" ? "claim.error.already" : "claim.error.expired");
}

export function renderClaimNotFound(locale: PageLocale): string {
  const { t } = texts(locale);
  return pageDocument(locale, t("claim.notFound.title"), `<main class="checkout"><h1>${t("claim.notFound.title")}</h1><p>${t("claim.notFound.body")}</p></main>`, "same-origin");
}
