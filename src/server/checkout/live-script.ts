/**
 * The checkout page's only script, inline and static (the page's CSP allows exactly its hash): every 2 s while
 * the invoice waits for money it reads GET /api/v1/checkout/{id} and updates the fields marked `data-field`;
 * every second it redraws the countdown on the server's clock. A change shows within 3 s (docs/invoices.md).
 */
export const LIVE_SCRIPT = `(() => {
  const root = document.querySelector("[data-checkout]");
  if (!root) return;
  let state = JSON.parse(root.getAttribute("data-checkout"));
  const skew = Date.parse(state.serverTime) - Date.now();
  const waiting = (s) => s.status === "open" || s.status === "processing";
  const set = (name, text) => root.querySelectorAll('[data-field="' + name + '"]').forEach((el) => { el.textContent = text; });
  const show = (name, visible) => root.querySelectorAll('[data-show="' + name + '"]').forEach((el) => { el.hidden = !visible; });
  const STATUS = ${JSON.stringify({
    open: "Awaiting payment",
    processing: "Payment received, awaiting confirmation",
    paid: "Paid",
    expired: "Expired",
    void: "Cancelled",
  })};
  const DETAIL = ${JSON.stringify({
    partially_paid: "Partly paid",
    overpaid: "Paid more than the amount due",
    paid_late: "Paid after the invoice expired",
    marked: "Settled by the shop",
  })};
  const left = () => {
    const ms = Date.parse(state.expiresAt) - (Date.now() + skew);
    const total = Math.max(0, Math.floor(ms / 1000));
    const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = String(total % 60).padStart(2, "0");
    return h > 0 ? h + ":" + String(m).padStart(2, "0") + ":" + s : m + ":" + s;
  };
  const render = () => {
    const c = state.currency;
    set("status", STATUS[state.status] || state.status);
    set("detail", state.statusDetail ? " · " + (DETAIL[state.statusDetail] || state.statusDetail) : "");
    set("paid", state.amountPaid + " " + c);
    set("pending", state.amountPending + " " + c);
    set("remaining", state.amountRemaining + " " + c);
    set("countdown", left());
    show("waiting", waiting(state));
    show("pending", !/^0(\\.0+)?$/.test(state.amountPending));
    root.className = "checkout checkout-" + state.status;
    const back = root.querySelector('[data-show="return"]');
    if (back && state.returnUrl) { back.querySelector("a").href = state.returnUrl; back.hidden = false; }
  };
  const poll = async () => {
    if (!waiting(state)) return;
    try {
      const response = await fetch("/api/v1/checkout/" + encodeURIComponent(state.id), { cache: "no-store" });
      if (response.ok) { state = await response.json(); render(); }
    } catch {}
  };
  setInterval(poll, 2000);
  setInterval(() => { if (waiting(state)) set("countdown", left()); }, 1000);
})();`;
