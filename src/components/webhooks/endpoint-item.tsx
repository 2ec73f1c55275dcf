"use client";

import { useMutation } from "@tanstack/react-query";
import { useSubmission } from "@/components/ui/use-submission";
import { useState, type FormEvent } from "react";
import { formatDate } from "@/components/ui/format";
import { useTRPC } from "@/lib/trpc/client";
import { usePermissions } from "@/components/shell/use-permissions";
import type { EndpointHealthView, EndpointView } from "./types";
import { statusLabel } from "@/lib/statuses";
import { StatusBadge } from "@/components/ui/badge";
import { ConfirmAction } from "@/components/ui/confirm-action";

/** One endpoint: what it is, how it fares, and what can be done with it. */
export function EndpointItem({ endpoint, health, onChanged }: { endpoint: EndpointView; health?: EndpointHealthView; onChanged: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const { mayCall } = usePermissions();
  const [notice, setNotice] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const done = (message: string) => async () => {
    setNotice(message);
    await onChanged();
  };
  const update = useMutation(trpc.webhookEndpoints.update.mutationOptions({ onSuccess: done("Saved.") }));
  const remove = useMutation(trpc.webhookEndpoints.remove.mutationOptions({ onSuccess: done("Deleted.") }));
  const [rotated, setRotated] = useState<{ secret: string; previousSecretExpiresAt: string | Date } | null>(null);
  // Once per confirmation (a double click rotates once); a replay has no secret: the first answer shows it.
  const rotate = useSubmission(
    trpc.webhookEndpoints.rotateSecret.mutationOptions({
      onSuccess: (result) => {
        if (result.secret) setRotated({ secret: result.secret, previousSecretExpiresAt: result.previousSecretExpiresAt });
      },
    }),
  );
  const recover = useMutation(trpc.webhookEndpoints.recover.mutationOptions());
  const test = useMutation(trpc.webhooks.sendTest.mutationOptions({ onSuccess: () => onChanged() }));
  const error = update.error ?? remove.error ?? rotate.error ?? recover.error ?? test.error;
  const name = endpoint.description || endpoint.url || "Default endpoint (no URL)";

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const description = String(form.get("description") ?? "").trim();
    update.mutate({ id: endpoint.id, url: String(form.get("url") ?? "").trim(), description: description || null });
    setEditing(false);
  }

  function replay(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const since = String(new FormData(event.currentTarget).get("since") ?? "");
    if (since) recover.mutate({ id: endpoint.id, since: new Date(since).toISOString() });
  }

  return (
    <li className="card" aria-label={`Endpoint ${name}`} style={{ margin: 0, overflowWrap: "anywhere" }}>
      <p>
        <strong>{endpoint.url ?? "No URL"}</strong>{" "}
        <StatusBadge kind="endpoint" status={endpoint.status} />
        {endpoint.isDefault ? <span className="muted"> · default (profile)</span> : null}
      </p>
      {endpoint.description ? <p className="muted">{endpoint.description}</p> : null}
      <p className="muted">
        {endpoint.eventTypes ? `Events: ${endpoint.eventTypes.join(", ")}` : "Every event type"}
        {endpoint.disabledReason ? ` · ${statusLabel("endpointDisabledReason", endpoint.disabledReason)}` : ""}
      </p>
      {health ? (
        <p aria-label={`Health of ${name}`}>
          Last 24 h: {health.last24h.delivered} delivered, {health.last24h.failed} failed, {health.last24h.pending} pending
          {health.failingSince ? ` · failing since ${formatDate(health.failingSince)}` : ""}
        </p>
      ) : null}
      <div className="form-row" style={{ flexWrap: "wrap" }}>
        {endpoint.url && mayCall("webhooks.sendTest") ? (
          <button type="button" className="btn btn-small" data-procedure="webhooks.sendTest" disabled={test.isPending} onClick={() => test.mutate({ endpointId: endpoint.id, dryRun: false })}>
            {test.isPending ? "Sending…" : "Send test event"}
          </button>
        ) : null}
        {mayCall("webhookEndpoints.update") ? (
          <>
            <button type="button" className="btn btn-small" data-procedure="webhookEndpoints.update" onClick={() => setEditing(!editing)} aria-expanded={editing}>
              Edit
            </button>
            <button
              type="button"
              className="btn btn-small"
              data-procedure="webhookEndpoints.update"
              disabled={update.isPending}
              onClick={() => update.mutate({ id: endpoint.id, enabled: endpoint.status !== "enabled" })}
            >
              {endpoint.status === "enabled" ? "Disable" : "Enable"}
            </button>
          </>
        ) : null}
        {mayCall("webhookEndpoints.rotateSecret") ? (
          <ConfirmAction
            label="Rotate secret…"
            procedure="webhookEndpoints.rotateSecret"
            question="Rotate this endpoint's secret? The old one keeps signing for 24 hours."
            confirmLabel="Yes, rotate"
            busyLabel="Rotating…"
            busy={rotate.pending}
            onOpen={rotate.startOver /* a new confirmation is a new rotation */}
            onConfirm={async () => (await rotate.submit({ id: endpoint.id })) !== undefined}
          />
        ) : null}
        {endpoint.isDefault || !mayCall("webhookEndpoints.remove") ? null : (
          <ConfirmAction
            label="Delete…"
            procedure="webhookEndpoints.remove"
            question="Delete this endpoint? It gets no more webhooks, and this cannot be undone."
            confirmLabel="Yes, delete"
            busy={remove.isPending}
            onConfirm={() => remove.mutateAsync({ id: endpoint.id })}
          />
        )}
      </div>
      {editing && mayCall("webhookEndpoints.update") ? (
        <form className="form" onSubmit={save} data-procedure="webhookEndpoints.update">
          <div className="field">
            <label htmlFor={`url-${endpoint.id}`}>URL</label>
            <input id={`url-${endpoint.id}`} name="url" type="url" required defaultValue={endpoint.url ?? ""} />
          </div>
          <div className="field">
            <label htmlFor={`description-${endpoint.id}`}>Description</label>
            <input id={`description-${endpoint.id}`} name="description" type="text" maxLength={500} defaultValue={endpoint.description ?? ""} />
          </div>
          <div>
            <button type="submit" className="btn btn-primary btn-small">
              Save
            </button>
          </div>
        </form>
      ) : null}
      {endpoint.url && mayCall("webhookEndpoints.recover") ? (
        <form className="form-row" data-procedure="webhookEndpoints.recover" onSubmit={replay} style={{ flexWrap: "wrap", alignItems: "end" }}>
          <div className="field">
            <label htmlFor={`since-${endpoint.id}`}>Replay events since</label>
            <input id={`since-${endpoint.id}`} name="since" type="datetime-local" required />
          </div>
          <button type="submit" className="btn btn-small" disabled={recover.isPending}>
            Replay since…
          </button>
        </form>
      ) : null}
      <div aria-live="polite">
        {notice ? <p className="alert alert-success">{notice}</p> : null}
        {rotated ? (
          <p className="alert alert-success">
            New secret, shown this once: <code className="secret">{rotated.secret}</code>. The previous one keeps signing until{" "}
            {formatDate(rotated.previousSecretExpiresAt)}.
          </p>
        ) : null}
        {recover.data ? <p className="alert alert-success">{recover.data.count} events are queued for this endpoint again.</p> : null}
        {test.data ? (
          <p className={`alert ${test.data.delivered ? "alert-success" : "alert-error"}`}>
            Test event {test.data.delivered ? "delivered" : "not delivered"}: {test.data.statusCode ? `HTTP ${test.data.statusCode}` : (test.data.message ?? "no answer")}.
          </p>
        ) : null}
        {error ? (
          <p className="alert alert-error" role="alert">
            {error.message}
          </p>
        ) : null}
      </div>
    </li>
  );
}
