"use client";

import { useState } from "react";
import { useSubmission } from "@/components/ui/use-submission";
import { formatDateTime } from "@/components/ui/format";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { SecretValue } from "@/components/ui/secret-value";
import { useTRPC, useTRPCClient } from "@/lib/trpc/client";
import { usePermissions } from "@/components/shell/use-permissions";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

/** The signing secret: revealed only on a click (fetched then, and audit-logged); rotated with a confirmation. */
export function SecretCard() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const refreshAfterWrite = useRefreshAfterWrite();
  const [rotated, setRotated] = useState<{ secret: string; previousSecretExpiresAt: string | Date } | null>(null);
  // Once per confirmation: a double click on "Yes, rotate" rotates once (a second rotation would end the
  // overlap of the secret the receiver still holds). A replay has no secret; the first answer shows it.
  const rotate = useSubmission(
    trpc.webhooks.rotateSecret.mutationOptions({
      onSuccess: async (result) => {
        if (result.webhookSecret) setRotated({ secret: result.webhookSecret, previousSecretExpiresAt: result.previousSecretExpiresAt });
        await refreshAfterWrite(trpc.webhooks.pathKey());
      },
    }),
  );

  const { mayCall } = usePermissions();
  // Revealing is a write (webhooks.write: audit-logged): a role that may not is shown no secret at all.
  if (!mayCall("webhooks.revealSecret")) return null;
  return (
    <section className="card" aria-labelledby="secret-heading">
      <h2 id="secret-heading">Signing secret</h2>
      <p className="muted">Verify every webhook with this secret (Standard Webhooks, HMAC-SHA256).</p>
      {rotated ? (
        <div className="form">
          <p className="alert alert-success" role="status">
            New secret created. The previous one keeps signing too until {formatDateTime(rotated.previousSecretExpiresAt)}: deploy the new
            one before then.
          </p>
          <SecretValue label="New webhook secret" value={rotated.secret} />
        </div>
      ) : (
        <SecretValue label="Webhook secret" procedure="webhooks.revealSecret" reveal={async () => (await client.webhooks.revealSecret.mutate()).webhookSecret} />
      )}
      {mayCall("webhooks.rotateSecret") ? (
        <div className="form-row" style={{ marginTop: "0.75rem" }} data-procedure="webhooks.rotateSecret">
          <ConfirmAction
            label="Rotate secret…"
            question="Rotate the secret? Deliveries will be signed with both secrets for 24 hours."
            confirmLabel="Yes, rotate"
            busyLabel="Rotating…"
            busy={rotate.pending}
            small={false}
            onOpen={rotate.startOver /* a new confirmation is a new rotation */}
            onConfirm={async () => (await rotate.submit({})) !== undefined}
          />
        </div>
      ) : null}
      {rotate.error ? (
        <p className="alert alert-error" role="alert">
          Could not rotate: {rotate.error.message}
        </p>
      ) : null}
    </section>
  );
}
