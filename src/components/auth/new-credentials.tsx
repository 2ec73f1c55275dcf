"use client";

import Link from "next/link";
import { useEffect, useRef } from "react";
import { FirstPaymentCurl } from "@/components/overview/quickstart";
import { SecretValue } from "@/components/ui/secret-value";

/**
 * The one time the API key is shown: in full, with a copy button (a reveal step only risks the user leaving
 * without it), and a ready curl that records a first payment with it. The webhook secret stays masked: it can
 * be revealed again on the Webhooks page.
 */
export function NewCredentials({
  merchantId,
  apiKey,
  webhookSecret,
  signedIn,
}: {
  merchantId: string;
  apiKey: string;
  webhookSecret: string;
  signedIn: boolean;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="credentials-heading" className="form">
      <h1 id="credentials-heading" tabIndex={-1} ref={heading}>
        Your account is ready
      </h1>
      <p className="alert alert-warning">
        Copy the API key now: it is shown only this once (a lost key is replaced on the Keys page). The webhook secret can be revealed again on the
        Webhooks page.
      </p>
      <dl className="details">
        <dt>Merchant id</dt>
        <dd>
          <code data-testid="merchant-id">{merchantId}</code>
        </dd>
        <dt>API key</dt>
        <dd data-testid="api-key">
          <SecretValue label="API key" value={apiKey} shownAtFirst />
        </dd>
        <dt>Webhook secret</dt>
        <dd data-testid="webhook-secret">
          <SecretValue label="Webhook secret" value={webhookSecret} />
        </dd>
      </dl>
      <div>
        <h2 style={{ fontSize: "1.1rem" }}>Record a first payment</h2>
        <FirstPaymentCurl apiKey={apiKey} />
      </div>
      {signedIn ? (
        <a className="btn btn-primary" href="/dashboard">
          I have stored them — go to the dashboard
        </a>
      ) : (
        <Link className="btn btn-primary" href="/login">
          I have stored them — sign in
        </Link>
      )}
    </section>
  );
}
