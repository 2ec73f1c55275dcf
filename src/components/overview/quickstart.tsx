"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { useTRPC } from "@/lib/trpc/client";

/** This site's origin, known only in the browser (the page is rendered on the server first). */
function useOrigin() {
  const [origin, setOrigin] = useState("https://your-payments-host");
  useEffect(() => setOrigin(window.location.origin), []);
  return origin;
}

/** A ready-to-paste curl that records a first payment (POST /api/v1/payment/confirm, docs/api-contract.md). */
export function FirstPaymentCurl({ apiKey }: { apiKey: string }) {
  const origin = useOrigin();
  const command = [
    `curl -X POST ${origin}/api/v1/payment/confirm \\`,
    `  -H "Authorization: Bearer ${apiKey}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '{"externalId": "first-payment-1", "amount": "19.99", "currency": "USD", "reference": "order-1"}'`,
  ].join("\n");
  return (
    <div>
      <pre className="code" aria-label="curl command that records a first payment">
        {command}
      </pre>
      <div className="form-row">
        <CopyButton value={command} label="Copy the curl command" />
      </div>
    </div>
  );
}

/**
 * What a merchant with no payments yet sees first on the overview: the three steps from sign-up to a first
 * payment and a first webhook. The full API key is not here (it is stored hashed and was shown once at
 * sign-up); the curl names the active key by its hint.
 */
export function Quickstart() {
  const trpc = useTRPC();
  const keys = useQuery(trpc.apiKeys.list.queryOptions({ limit: 100 }));
  const active = keys.data?.data.find((key) => key.status === "active");
  return (
    <section className="card" aria-labelledby="quickstart-heading">
      <h2 id="quickstart-heading">Get started</h2>
      <ol className="steps">
        <li>
          <strong>Your API key.</strong>{" "}
          {active ? (
            <>
              The key <code>sk_live_{active.hint}</code> (the part after the dots) was shown in full once, when it was created.{" "}
            </>
          ) : null}
          Lost it? <Link href="/dashboard/keys">Create a new key</Link> — it is shown once, with a copy button.
        </li>
        <li>
          <strong>Record a first payment</strong> from your server or a terminal (put your key in <code>$API_KEY</code>); it appears here at once:
          <FirstPaymentCurl apiKey="$API_KEY" />
        </li>
        <li>
          <strong>Receive webhooks.</strong> Set your endpoint and <Link href="/dashboard/webhooks">send a test event</Link> to check its
          signature verification.
        </li>
      </ol>
    </section>
  );
}
