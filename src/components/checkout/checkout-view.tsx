"use client";

import { useEffect, useState } from "react";
import type { Checkout } from "@/server/services/invoices/get-checkout";
import "./checkout.css";

/** How often the page asks for the invoice's status: a change shows within 3 s (docs/invoices.md). */
const POLL_MS = 2_000;

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

const isZero = (amount: string) => /^0(\.0+)?$/.test(amount);

const WAITING = new Set<Checkout["status"]>(["open", "processing"]);

function remaining(ms: number): string {
  if (ms <= 0) return "0:00";
  const total = Math.floor(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

/** The checkout, live: polls the public status route while the invoice waits for money, and counts down. */
export function CheckoutView({ initial }: { initial: Checkout }) {
  const [checkout, setCheckout] = useState(initial);
  // The server's clock minus ours, so the countdown does not depend on the payer's clock being right.
  const [skew] = useState(() => new Date(initial.serverTime).getTime() - Date.now());
  const [now, setNow] = useState(() => Date.now() + skew);
  const waiting = WAITING.has(checkout.status);

  useEffect(() => {
    if (!waiting) return;
    let cancelled = false;
    const poll = async () => {
      try {
        const response = await fetch(`/api/v1/checkout/${encodeURIComponent(checkout.id)}`, { cache: "no-store" });
        if (response.ok && !cancelled) setCheckout((await response.json()) as Checkout);
      } catch {
        // Offline for a moment: the next poll tries again.
      }
    };
    const timer = setInterval(poll, POLL_MS);
    const tick = setInterval(() => setNow(Date.now() + skew), 1_000);
    return () => {
      cancelled = true;
      clearInterval(timer);
      clearInterval(tick);
    };
  }, [waiting, checkout.id, skew]);

  const left = new Date(checkout.expiresAt).getTime() - now;
  return (
    <main className="checkout">
      <p className="checkout-merchant">{checkout.merchantName}</p>
      <h1>Pay {checkout.amount} {checkout.currency}</h1>
      {checkout.description ? <p className="checkout-description">{checkout.description}</p> : null}

      <section aria-labelledby="checkout-status-heading" className={`checkout-status checkout-status-${checkout.status}`}>
        <h2 id="checkout-status-heading">Status</h2>
        <p role="status" aria-live="polite" data-testid="checkout-status">
          <strong>{STATUS_TEXT[checkout.status]}</strong>
          {checkout.statusDetail ? <span> · {DETAIL_TEXT[checkout.statusDetail]}</span> : null}
        </p>
        {waiting ? (
          <p>
            Time left: <span role="timer" aria-label="Time left to pay">{remaining(left)}</span>
          </p>
        ) : null}
      </section>

      <dl className="checkout-amounts">
        <div>
          <dt>Amount</dt>
          <dd>{checkout.amount} {checkout.currency}</dd>
        </div>
        <div>
          <dt>Paid</dt>
          <dd data-testid="checkout-paid">{checkout.amountPaid} {checkout.currency}</dd>
        </div>
        {isZero(checkout.amountPending) ? null : (
          <div>
            <dt>Pending</dt>
            <dd>{checkout.amountPending} {checkout.currency}</dd>
          </div>
        )}
        <div>
          <dt>Remaining</dt>
          <dd data-testid="checkout-remaining">{checkout.amountRemaining} {checkout.currency}</dd>
        </div>
      </dl>

      {waiting && checkout.paymentInstructions ? (
        <section aria-labelledby="checkout-instructions-heading" className="checkout-instructions">
          <h2 id="checkout-instructions-heading">How to pay</h2>
          <p>{checkout.paymentInstructions}</p>
          <p>Quote this reference: <code>{checkout.id}</code></p>
        </section>
      ) : null}

      {checkout.returnUrl ? (
        <p>
          <a className="checkout-return" href={checkout.returnUrl} rel="noreferrer">
            Return to {checkout.merchantName}
          </a>
        </p>
      ) : null}
    </main>
  );
}
