"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ErrorMessage, Loading } from "@/components/ui/states";
import { eventTypes } from "@/lib/event-types";
import { useTRPC } from "@/lib/trpc/client";
import { usePermissions } from "@/components/shell/use-permissions";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

/**
 * The live default endpoint (the profile's webhook URL and event types): where webhooks go and which events are
 * sent. The checkboxes are the event catalogue's, and a save sends only what the user changed: saving a URL never
 * rewrites the subscription (docs/webhooks.md, "Endpoints").
 */
export function EndpointCard() {
  const trpc = useTRPC();
  const { mayCall } = usePermissions();
  const refreshAfterWrite = useRefreshAfterWrite();
  const profile = useQuery(trpc.merchants.profile.queryOptions());
  const policy = useQuery(trpc.webhooks.targetPolicy.queryOptions());
  const [saved, setSaved] = useState(false);
  const update = useMutation(
    trpc.merchants.update.mutationOptions({
      onSuccess: async () => {
        setSaved(true);
        // The profile's webhook settings are the default endpoint's: the endpoint list shows them too.
        await refreshAfterWrite(trpc.merchants.pathKey(), trpc.webhookEndpoints.pathKey());
      },
    }),
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    if (!profile.data) return;
    const form = new FormData(event.currentTarget);
    const url = String(form.get("webhookUrl") ?? "").trim() || null;
    const events = eventTypes.filter((type) => form.get(`event-${type}`) === "on");
    const subscribed = new Set<string>(profile.data.webhookEvents);
    const eventsChanged = events.length !== subscribed.size || events.some((type) => !subscribed.has(type));
    const changes = {
      ...(url !== (profile.data.webhookUrl ?? null) ? { webhookUrl: url } : {}),
      ...(eventsChanged ? { webhookEvents: events } : {}),
    };
    if (Object.keys(changes).length === 0) setSaved(true);
    else update.mutate(changes);
  }

  // The profile's webhook settings are saved with the profile (merchants.update): a role that may not sees them read-only.
  const writes = mayCall("merchants.update");
  if (profile.isPending) return <Loading what="the webhook endpoint" retry={profile.refetch} />;
  if (profile.isError) return <ErrorMessage error={profile.error} what="the webhook endpoint" retry={profile.refetch} />;
  const fieldError = (update.error?.data as { errors?: { path: string; message: string }[] } | undefined)?.errors?.find((error) =>
    error.path.endsWith("webhookUrl"),
  );
  return (
    <section className="card" aria-labelledby="endpoint-heading">
      <h2 id="endpoint-heading">Endpoint</h2>
      {/* Any edit clears "Saved.": it must never stand beside a value that is not saved (or not valid). */}
      <form className="form" onSubmit={submit} onChange={() => setSaved(false)} data-procedure={writes ? "merchants.update" : undefined}>
        <fieldset disabled={!writes} className="form" style={{ border: "none", padding: 0, margin: 0 }}>
          <div className="field">
            <label htmlFor="webhook-url">Webhook URL</label>
            <input
              id="webhook-url"
              name="webhookUrl"
              type="url"
              defaultValue={profile.data.webhookUrl ?? ""}
              placeholder="https://shop.example/webhooks"
              aria-describedby="webhook-url-hint"
              aria-invalid={fieldError ? true : undefined}
            />
            <p id="webhook-url-hint" className="field-hint">
              {policy.data?.allowPrivateTargets
                ? "This server also sends to http:// and to private and loopback addresses (WEBHOOK_ALLOW_PRIVATE_TARGETS is on: for development only)."
                : "HTTPS, reachable from the internet: private and loopback addresses are refused (a receiver on your own machine needs WEBHOOK_ALLOW_PRIVATE_TARGETS=true on this server)."}{" "}
              Leave empty to stop sending.
            </p>
          </div>
          <fieldset className="field" style={{ border: "none", padding: 0, margin: 0 }}>
            <legend className="label">Events sent</legend>
            {eventTypes.map((type) => (
              <label key={type} className="checkbox">
                <input type="checkbox" name={`event-${type}`} defaultChecked={profile.data.webhookEvents.includes(type)} />
                <code>{type}</code>
              </label>
            ))}
        </fieldset>
        </fieldset>
        {writes ? (
          <div>
            <button type="submit" className="btn btn-primary" disabled={update.isPending}>
              {update.isPending ? "Saving…" : "Save endpoint"}
            </button>
          </div>
        ) : null}
        {saved ? (
          <p className="alert alert-success" role="status">
            Saved.
          </p>
        ) : null}
        {update.error ? (
          <p className="alert alert-error" role="alert">
            {fieldError ? `Webhook URL ${fieldError.message}` : update.error.message}
          </p>
        ) : null}
      </form>
    </section>
  );
}
