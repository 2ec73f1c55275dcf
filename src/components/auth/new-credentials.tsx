"use client";

import Link from "next/link";
import { useEffect, useRef } from "react";
import { SecretValue } from "@/components/ui/secret-value";

/** The one time the API key is shown: masked until revealed, with copy buttons. */
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
      <h2 id="credentials-heading" tabIndex={-1} ref={heading}>
        Your account is ready
      </h2>
      <p className="alert alert-warning">
        Store the API key now: it is shown only this once. The webhook secret can be revealed again on the Webhooks page.
      </p>
      <dl className="details">
        <dt>Merchant id</dt>
        <dd>
          <code data-testid="merchant-id">{merchantId}</code>
        </dd>
        <dt>API key</dt>
        <dd data-testid="api-key">
          <SecretValue label="API key" value={apiKey} />
        </dd>
        <dt>Webhook secret</dt>
        <dd data-testid="webhook-secret">
          <SecretValue label="Webhook secret" value={webhookSecret} />
        </dd>
      </dl>
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
