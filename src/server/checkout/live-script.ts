/**
 * The checkout page's only script, inline and static (the page's CSP allows exactly its hash, so it carries no
 * text of its own: words come from the page, in the payer's language). It enhances a page that works without
 * it (docs/invoices.md):
 * - every 2 s while the invoice waits for money it reads GET /api/v1/checkout/{id}; when the status or an amount
 *   changed it fetches the page again and swaps the new `<main>` in (the server renders every state, QR codes
 *   with the new amount included), keeps the payer's chosen method open and announces the new status. A change
 *   shows within 3 s.
 * - every second it redraws the countdown on the server's clock;
 * - it shows the copy buttons when the browser can copy, and says "Copied" on the button and to screen readers.
 */
export const LIVE_SCRIPT = `(() => {
  let main = document.querySelector("[data-checkout]");
  const announce = document.getElementById("checkout-announce");
  if (!main) return;
  let state = JSON.parse(main.getAttribute("data-checkout"));
  const skew = Date.parse(state.serverTime) - Date.now();
  const waiting = (s) => s.status === "open" || s.status === "processing";
  const fingerprint = (s) => [s.status, s.statusDetail, s.amountPaid, s.amountPending].join("|");
  const left = () => {
    const ms = Date.parse(state.expiresAt) - (Date.now() + skew);
    const total = Math.max(0, Math.floor(ms / 1000));
    const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = String(total % 60).padStart(2, "0");
    return h > 0 ? h + ":" + String(m).padStart(2, "0") + ":" + s : m + ":" + s;
  };
  const enhance = () => {
    if (navigator.clipboard) main.querySelectorAll("button[data-copy]").forEach((button) => { button.hidden = false; });
  };
  document.addEventListener("click", async (event) => {
    const button = event.target instanceof Element && event.target.closest("button[data-copy]");
    if (!button) return;
    try {
      await navigator.clipboard.writeText(button.getAttribute("data-copy"));
      const label = button.textContent;
      button.textContent = main.getAttribute("data-copied");
      button.setAttribute("data-copied", "");
      if (announce) announce.textContent = main.getAttribute("data-copied");
      setTimeout(() => { button.textContent = label; button.removeAttribute("data-copied"); }, 2000);
    } catch {}
  });
  const refresh = async () => {
    const response = await fetch(location.href, { cache: "no-store", headers: { accept: "text/html" } });
    if (!response.ok) return;
    const next = new DOMParser().parseFromString(await response.text(), "text/html").querySelector("[data-checkout]");
    if (!next) return;
    const chosen = main.querySelector("details[open]");
    const method = chosen && chosen.getAttribute("data-method");
    main.replaceWith(next);
    main = next;
    state = JSON.parse(main.getAttribute("data-checkout"));
    const again = method !== null && main.querySelector('details[data-method="' + method + '"]');
    if (again) again.open = true;
    enhance();
    const status = main.querySelector('[data-testid="checkout-status"]');
    if (announce && status) announce.textContent = status.textContent;
  };
  const poll = async () => {
    if (!waiting(state)) return;
    try {
      const response = await fetch("/api/v1/checkout/" + encodeURIComponent(state.id), { cache: "no-store" });
      if (response.ok && fingerprint(await response.json()) !== fingerprint(state)) await refresh();
    } catch {}
  };
  enhance();
  setInterval(poll, 2000);
  setInterval(() => {
    if (!waiting(state)) return;
    main.querySelectorAll('[data-field="countdown"]').forEach((el) => { el.textContent = left(); });
  }, 1000);
})();`;
