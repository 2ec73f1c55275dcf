import { createHash } from "node:crypto";
import type { Checkout } from "@/server/services/invoices/get-checkout";
import { copyable, escape, texts, type Texts } from "./html";
import { LIVE_SCRIPT } from "./live-script";
import type { PageLocale } from "./locale";
import { LANGUAGE_NAMES, LANGUAGES } from "./messages";
import { renderMethods } from "./render-methods";
import { STYLE } from "./style";

/**
 * The public checkout page as one HTML string (docs/invoices.md). Not a React page: server-rendering one cost
 * ≈ 20 ms of CPU per request, a template ≈ 1 ms, and the first paint target is p50 < 50 ms at 20 concurrent
 * requests (bench case 9). Every value is escaped; the only script is LIVE_SCRIPT, allowed by its hash. Every
 * text comes from the message catalogue (messages.ts) in the payer's language.
 */

const SCRIPT_HASH = createHash("sha256").update(LIVE_SCRIPT).digest("base64");

export const CHECKOUT_HEADERS: Record<string, string> = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  vary: "Accept-Language",
  // The id in the URL is the capability: it must not leak through Referer, frames or search engines.
  "referrer-policy": "no-referrer",
  "x-robots-tag": "noindex, nofollow",
  "x-content-type-options": "nosniff",
  "content-security-policy": [
    "default-src 'none'",
    `script-src 'sha256-${SCRIPT_HASH}'`,
    "style-src 'unsafe-inline'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; "),
};

/**
 * What the page says, by the invoice's state. Once an invoice records refunded money (docs/refunds.md), the page
 * says so to the payer: `refunded`, with the amount refunded among the amounts.
 */
export type PageState = Checkout["status"] | "refunded";
export const pageStateOf = (checkout: Checkout): PageState => (isZero(checkout.amountRefunded) ? checkout.status : "refunded");
const isZero = (amount: string) => /^0(\.0+)?$/.test(amount);

/** What the live script needs to follow the invoice, and nothing more (the rest is on the page). */
function liveState(checkout: Checkout) {
  const { id, status, statusDetail, amountPaid, amountPending, expiresAt, serverTime } = checkout;
  return { id, status, statusDetail, amountPaid, amountPending, expiresAt, serverTime };
}

export async function renderCheckoutPage(checkout: Checkout, locale: PageLocale): Promise<string> {
  const words = texts(locale);
  const { t } = words;
  const state = pageStateOf(checkout);
  const merchant = checkout.merchantName;
  const money = (amount: string) => words.money(amount, checkout.currency);
  const waiting = state === "open" || state === "processing";
  const pending = !/^0(\.0+)?$/.test(checkout.amountPending);

  const body =
    `<main class="checkout checkout-${state}" data-checkout="${escape(JSON.stringify(liveState(checkout)))}" data-copied="${t("copied")}">` +
    (checkout.livemode ? "" : `<p class="test-mode" role="note" data-testid="checkout-test-mode">${t("testMode")}</p>`) +
    `<div class="top"><p class="merchant">${escape(merchant)}</p>${languageSwitcher(locale, words)}</div>` +
    `<h1>${state === "open" ? t("title.open", { amount: money(checkout.amountDue) }) : t(`title.${state}`)}</h1>` +
    (checkout.description ? `<p>${escape(checkout.description)}</p>` : "") +
    `<section class="box status-box" aria-labelledby="status-heading"><h2 id="status-heading">${t("status.heading")}</h2>` +
    `<p data-testid="checkout-status"><strong>${t(`status.${state}`)}</strong>` +
    (checkout.statusDetail ? ` · ${t(`detail.${checkout.statusDetail}`)}` : "") +
    `</p>${stateText(checkout, state, words)}` +
    (waiting ? `<p>${t("countdown.text")} <span role="timer" aria-label="${t("countdown.label")}" data-field="countdown">${countdown(checkout)}</span></p>` : "") +
    `</section>` +
    `<section class="box" aria-labelledby="amounts-heading"><h2 id="amounts-heading" class="visually-hidden">${t("amounts.heading")}</h2><dl class="amounts">` +
    amountRow(t("amounts.total"), money(checkout.amount)) +
    amountRow(t("amounts.paid"), money(checkout.amountPaid), "checkout-paid") +
    (pending ? amountRow(t("amounts.pending"), money(checkout.amountPending), "checkout-pending") : "") +
    (state === "refunded" ? amountRow(t("amounts.refunded"), money(checkout.amountRefunded), "checkout-refunded") : amountRow(t("amounts.remaining"), money(checkout.amountRemaining), "checkout-remaining")) +
    `</dl></section>` +
    (state === "open"
      ? `<section class="box" aria-labelledby="methods-heading" data-testid="checkout-methods"><h2 id="methods-heading">${t("methods.heading")}</h2>${await renderMethods(checkout, words)}</section>`
      : "") +
    (checkout.paymentInstructions && state === "open"
      ? `<section class="box note" aria-labelledby="note-heading"><h2 id="note-heading">${t("note.heading", { merchant })}</h2><p>${escape(checkout.paymentInstructions)}</p></section>`
      : "") +
    `<section class="box" aria-labelledby="reference-heading"><h2 id="reference-heading">${t("reference.heading")}</h2>` +
    `<p>${t("reference.quote")}</p><p class="copyable" data-testid="checkout-reference">${copyable(checkout.id, checkout.id, t("reference.heading"), words)}</p></section>` +
    contact(checkout, state, words) +
    (checkout.returnUrl ? `<p><a class="return" href="${escape(checkout.returnUrl)}" rel="noreferrer">${t("return", { merchant })}</a></p>` : "") +
    `</main><p class="visually-hidden" role="status" id="checkout-announce"></p><script>${LIVE_SCRIPT}</script>`;
  return pageDocument(locale, t("page.title", { merchant }), body);
}

function stateText(checkout: Checkout, state: PageState, words: Texts): string {
  const { t } = words;
  const money = (amount: string) => words.money(amount, checkout.currency);
  const merchant = checkout.merchantName;
  switch (state) {
    case "open":
      return checkout.statusDetail === "partially_paid"
        ? `<p>${t("body.open.partial", { paid: money(checkout.amountPaid), amount: money(checkout.amount), due: money(checkout.amountDue) })}</p>`
        : "";
    case "processing":
      return `<p>${t("body.processing", { pending: money(checkout.amountPending) })}</p>`;
    case "paid":
      return `<p data-testid="checkout-paid-at">${t("body.paid", { merchant, time: words.time(checkout.paidAt ?? checkout.serverTime) })}</p>`;
    case "expired":
      return `<p>${t("body.expired", { time: words.time(checkout.expiresAt) })}</p><p>${t("help.expired", { merchant })}</p>`;
    case "void":
      return `<p>${t("body.void", { merchant })}</p><p>${t("help.void", { merchant })}</p>`;
    case "refunded":
      return `<p>${t("body.refunded", { merchant })}</p>`;
  }
}

/** Whom to ask when the invoice can no longer be paid: the merchant's website from its profile. */
function contact(checkout: Checkout, state: PageState, words: Texts): string {
  if (!checkout.merchantWebsite || (state !== "expired" && state !== "void" && state !== "refunded")) return "";
  const website = `<a href="${escape(checkout.merchantWebsite)}" rel="noreferrer">${escape(new URL(checkout.merchantWebsite).host)}</a>`;
  return `<p data-testid="checkout-contact">${words.tHtml("contact.website", { merchant: escape(checkout.merchantName), website })}</p>`;
}

function amountRow(label: string, value: string, testId?: string): string {
  return `<div><dt>${label}</dt><dd${testId ? ` data-testid="${testId}"` : ""}>${escape(value)}</dd></div>`;
}

/** Links, not a form: the switcher works without a script, and each language's page is its own URL. */
function languageSwitcher(locale: PageLocale, words: Texts): string {
  const links = LANGUAGES.map(
    (language) =>
      `<li><a href="?lang=${language}" hreflang="${language}" lang="${language}"${language === locale.language ? ' aria-current="true"' : ""}>${LANGUAGE_NAMES[language]}</a></li>`,
  );
  return `<nav class="languages" aria-label="${words.t("language.label")}"><ul>${links.join("")}</ul></nav>`;
}

function countdown(checkout: Checkout): string {
  const total = Math.max(0, Math.floor((Date.parse(checkout.expiresAt) - Date.parse(checkout.serverTime)) / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

/** The page around `body`: language, viewport, no referrer, no indexing, the one stylesheet (the claim page uses it too). */
export function pageDocument(locale: PageLocale, title: string, body: string, referrer: "no-referrer" | "same-origin" = "no-referrer"): string {
  return `<!DOCTYPE html><html lang="${locale.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="referrer" content="${referrer}"><meta name="robots" content="noindex, nofollow"><title>${title}</title><style>${STYLE}</style></head>` +
    `<body>${body}</body></html>`;
}

/** Unknown, malformed and foreign ids alike: a plain page that says nothing about what exists. */
export function renderCheckoutNotFound(locale: PageLocale): string {
  const { t } = texts(locale);
  return pageDocument(locale, t("notFound.title"), `<main class="checkout"><h1>${t("notFound.title")}</h1><p>${t("notFound.body")}</p></main>`);
}

/** Too many loads from one address (the checkout's rate limit): the payer waits and reloads; nothing is lost. */
export function renderCheckoutBusy(retryAfterSeconds: number, locale: PageLocale): string {
  const { t } = texts(locale);
  return pageDocument(locale, t("busy.pageTitle"), `<main class="checkout"><h1>${t("busy.title")}</h1><p>${t("busy.body", { seconds: String(retryAfterSeconds) })}</p></main>`);
}
