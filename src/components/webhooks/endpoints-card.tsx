"use client";

import { useQuery } from "@tanstack/react-query";
import { useSubmission } from "@/components/ui/use-submission";
import { useState, type FormEvent } from "react";
import { QueryView } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { usePermissions } from "@/components/shell/use-permissions";
import { EndpointItem } from "./endpoint-item";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

/**
 * Every webhook endpoint of the merchant (docs/webhooks.md, "Endpoints"): add one, and per endpoint its health,
 * edit, disable/enable, secret rotation, a test send and "Replay since…". A banner names each disabled endpoint.
 */
export function EndpointsCard() {
  const trpc = useTRPC();
  const refreshAfterWrite = useRefreshAfterWrite();
  const { mayCall } = usePermissions();
  const endpoints = useQuery(trpc.webhookEndpoints.list.queryOptions());
  const health = useQuery(trpc.webhookEndpoints.health.queryOptions());
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const refresh = () => refreshAfterWrite(trpc.webhookEndpoints.pathKey());
  const create = useSubmission(
    trpc.webhookEndpoints.create.mutationOptions({
      onSuccess: async (created) => {
        // A replay (the same submission again) has no secret: the first answer showed it.
        if (created.secret) setSecret({ url: created.endpoint.url ?? "", secret: created.secret });
        await refresh();
      },
    }),
  );

  function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const description = String(form.get("description") ?? "").trim();
    void create.submit({ url: String(form.get("url") ?? "").trim(), description: description || null });
    event.currentTarget.reset();
  }

  return (
    <section className="card" aria-labelledby="endpoints-heading">
      <h2 id="endpoints-heading">Endpoints</h2>
      <QueryView query={endpoints} what="webhook endpoints" empty="No endpoints yet.">
        {(page) => (
          <>
            {page.data
              .filter((endpoint) => endpoint.status === "disabled" && endpoint.disabledReason !== "manual")
              .map((endpoint) => (
                <p key={endpoint.id} className="alert alert-warning" role="alert">
                  {endpoint.url} is disabled: {endpoint.disabledReason === "gone" ? "it answered 410 Gone" : "it failed every attempt for days"}.
                  Its deliveries wait until you enable it again.
                </p>
              ))}
            <ul className="inline-list" style={{ display: "grid", gap: "0.75rem", padding: 0, listStyle: "none" }}>
              {page.data.map((endpoint) => (
                <EndpointItem
                  key={endpoint.id}
                  endpoint={endpoint}
                  health={health.data?.find((entry) => entry.endpointId === endpoint.id)}
                  onChanged={refresh}
                />
              ))}
            </ul>
          </>
        )}
      </QueryView>
      {mayCall("webhookEndpoints.create") ? (
        <form className="form" onSubmit={add} aria-labelledby="add-endpoint-heading" data-procedure="webhookEndpoints.create">
          <h3 id="add-endpoint-heading">Add an endpoint</h3>
          <div className="field">
            <label htmlFor="new-endpoint-url">Endpoint URL</label>
            <input id="new-endpoint-url" name="url" type="url" required placeholder="https://shop.example/hooks" />
          </div>
          <div className="field">
            <label htmlFor="new-endpoint-description">Description</label>
            <input id="new-endpoint-description" name="description" type="text" maxLength={500} />
          </div>
          <div>
            <button type="submit" className="btn btn-primary" disabled={create.pending}>
              {create.pending ? "Adding…" : "Add endpoint"}
            </button>
          </div>
          {create.error ? (
            <p className="alert alert-error" role="alert">
              {create.error.message}
            </p>
          ) : null}
        </form>
      ) : null}
      {secret ? (
        <div className="alert alert-success" role="status">
          <p>
            Added {secret.url}. Its signing secret, shown this once: <code className="secret">{secret.secret}</code>
          </p>
          <button type="button" className="btn btn-small" onClick={() => setSecret(null)}>
            I have stored it
          </button>
        </div>
      ) : null}
    </section>
  );
}
