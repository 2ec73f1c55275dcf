"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatDateTime } from "@/components/ui/format";
import { SecretValue } from "@/components/ui/secret-value";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";

/** The signing secret: revealed only on a click (fetched then, and audit-logged); rotated with a confirmation. */
export function SecretCard() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const rotate = useMutation(
    trpc.webhooks.rotateSecret.mutationOptions({
      onSuccess: async () => {
        setConfirming(false);
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
      },
    }),
  );

  return (
    <section className="card" aria-labelledby="secret-heading">
      <h2 id="secret-heading">Signing secret</h2>
      <p className="muted">Verify every webhook with this secret (Standard Webhooks, HMAC-SHA256).</p>
      {rotate.data ? (
        <div className="form">
          <p className="alert alert-success" role="status">
            New secret created. The previous one keeps signing too until {formatDateTime(rotate.data.previousSecretExpiresAt)}: deploy the new
            one before then.
          </p>
          <SecretValue label="New webhook secret" value={rotate.data.webhookSecret} />
        </div>
      ) : (
        <SecretValue label="Webhook secret" reveal={async () => (await client.webhooks.revealSecret.mutate()).webhookSecret} />
      )}
      <div className="form-row" style={{ marginTop: "0.75rem" }}>
        {confirming ? (
          <>
            <span>Rotate the secret? Deliveries will be signed with both secrets for 24 hours.</span>
            <button type="button" className="btn btn-danger" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
              {rotate.isPending ? "Rotating…" : "Yes, rotate"}
            </button>
            <button type="button" className="btn" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </>
        ) : (
          <button type="button" className="btn" onClick={() => setConfirming(true)}>
            Rotate secret…
          </button>
        )}
      </div>
      {rotate.error ? (
        <p className="alert alert-error" role="alert">
          Could not rotate: {rotate.error.message}
        </p>
      ) : null}
    </section>
  );
}
