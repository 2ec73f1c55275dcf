import { createHash } from "node:crypto";
import type { Checkout } from "@/server/services/invoices/get-checkout";
import { LIVE_SCRIPT } from "./live-script";

/**
 * The public checkout page as one HTML string (docs/invoices.md). Not a React page: server-rendering one cost
 * ≈ 20 ms of CPU per request, a template ≈ 1 ms, and the first paint target is p50 < 50 ms at 20 concurrent
 * requests (bench case 7). Every value is escaped; the only script is LIVE_SCRIPT, allowed by its hash.
 */

const SCRIPT_HASH = createHash("sha256").update(LIVE_SCRIPT).digest("base64");

export const CHECKOUT_HEADERS: Record<string, string> = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
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

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escape = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

const STATUS_TEXT: Record<Checkout["status"], string> = {
  open: "Awaiting payment",
  processing: "Payment received, awaiting confirmation",
  paid: "Paid",
  expired: "Expired",
  void: "Cancelled",
};
const DETAIL_TEXT: Record<NonNullable<Checkout["statusDetail"]>, string> = {
  partially_paid: "Partly paid",
  overpaid: "Paid more than the amount due",
  paid_late: "Paid after the invoice expired",
  marked: "Settled by the shop",
};

const STYLE = `
:root{--bg:#f7f7f8;--surface:#fff;--text:#16181d;--muted:#555b66;--border:#d9dce1;--accent:#3b4fd8;--danger:#b42318;--success:#067647;--focus:#1d4ed8;--radius:8px;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--text);background:var(--bg)}
*{box-sizing:border-box}body{margin:0;line-height:1.5}a{color:var(--accent)}:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}
.checkout{max-width:32rem;margin:0 auto;padding:1.5rem 1rem 3rem;overflow-wrap:anywhere}
h1{font-size:1.6rem;margin:.25rem 0 .5rem}h2{font-size:1rem;margin:0 0 .25rem}
.merchant{color:var(--muted);margin:0;font-weight:600}
.test-mode{background:#fff3cd;border:1px solid #b7791f;color:#5c3d00;border-radius:var(--radius);padding:.5rem .75rem;margin:0 0 1rem;font-weight:600}
.box{background:var(--surface);border:1px solid var(--border);border-radius:var(--radius);padding:1rem;margin:1rem 0}
.box p{margin:.25rem 0}.instructions p{white-space:pre-line}
.checkout-paid .status-box{border-color:var(--success)}.checkout-paid .status-box strong{color:var(--success)}
.checkout-expired .status-box strong,.checkout-void .status-box strong{color:var(--danger)}
dl.box div{display:flex;justify-content:space-between;gap:1rem;padding:.25rem 0}dt{color:var(--muted)}dd{margin:0;text-align:right;font-variant-numeric:tabular-nums}
.return{display:inline-block;padding:.75rem 1rem;min-height:44px}
`;

function remaining(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

function document(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex, nofollow"><title>${escape(title)}</title><style>${STYLE}</style></head>` +
    `<body>${body}</body></html>`;
}

export function renderCheckoutPage(checkout: Checkout): string {
  const c = escape(checkout.currency);
  const waiting = checkout.status === "open" || checkout.status === "processing";
  const pending = !/^0(\.0+)?$/.test(checkout.amountPending);
  const left = remaining(Date.parse(checkout.expiresAt) - Date.parse(checkout.serverTime));
  const hidden = (visible: boolean) => (visible ? "" : " hidden");
  const body =
    `<main class="checkout checkout-${checkout.status}" data-checkout="${escape(JSON.stringify(checkout))}">` +
    (checkout.livemode ? "" : `<p class="test-mode" role="note" data-testid="checkout-test-mode">Test mode: this invoice is test data and no real money moves.</p>`) +
    `<p class="merchant">${escape(checkout.merchantName)}</p>` +
    `<h1>Pay ${escape(checkout.amount)} ${c}</h1>` +
    (checkout.description ? `<p>${escape(checkout.description)}</p>` : "") +
    `<section class="box status-box" aria-labelledby="status-heading"><h2 id="status-heading">Status</h2>` +
    `<p role="status" aria-live="polite" data-testid="checkout-status"><strong data-field="status">${STATUS_TEXT[checkout.status]}</strong>` +
    `<span data-field="detail">${checkout.statusDetail ? ` · ${DETAIL_TEXT[checkout.statusDetail]}` : ""}</span></p>` +
    `<p data-show="waiting"${hidden(waiting)}>Time left: <span role="timer" aria-label="Time left to pay" data-field="countdown">${left}</span></p></section>` +
    `<dl class="box"><div><dt>Amount</dt><dd>${escape(checkout.amount)} ${c}</dd></div>` +
    `<div><dt>Paid</dt><dd data-field="paid" data-testid="checkout-paid">${escape(checkout.amountPaid)} ${c}</dd></div>` +
    `<div data-show="pending"${hidden(pending)}><dt>Pending</dt><dd data-field="pending">${escape(checkout.amountPending)} ${c}</dd></div>` +
    `<div><dt>Remaining</dt><dd data-field="remaining" data-testid="checkout-remaining">${escape(checkout.amountRemaining)} ${c}</dd></div></dl>` +
    (checkout.paymentInstructions
      ? `<section class="box instructions" data-show="waiting" aria-labelledby="instructions-heading"${hidden(waiting)}><h2 id="instructions-heading">How to pay</h2>` +
        `<p>${escape(checkout.paymentInstructions)}</p><p>Quote this reference: <code>${escape(checkout.id)}</code></p></section>`
      : "") +
    `<p data-show="return"${hidden(checkout.returnUrl !== null)}><a class="return" href="${escape(checkout.returnUrl ?? "#")}" rel="noreferrer">Return to ${escape(checkout.merchantName)}</a></p>` +
    `</main><script>${LIVE_SCRIPT}</script>`;
  return document(`Checkout · ${checkout.merchantName}`, body);
}

/** Unknown, malformed and foreign ids alike: a plain page that says nothing about what exists. */
export function renderCheckoutNotFound(): string {
  return document("Invoice not found", `<main class="checkout"><h1>Invoice not found</h1><p>Check the link you were given, or ask the shop for a new one.</p></main>`);
}

/** Too many loads from one address (the checkout's rate limit): the payer waits and reloads; nothing is lost. */
export function renderCheckoutBusy(retryAfterSeconds: number): string {
  return document("Try again shortly", `<main class="checkout"><h1>Too many requests</h1><p>Please wait ${retryAfterSeconds} s, then reload this page.</p></main>`);
}
