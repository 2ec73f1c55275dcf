"use client";

import { TableWrap } from "@/components/ui/table-wrap";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { StatusBadge } from "@/components/ui/badge";
import { formatDate } from "@/components/ui/format";
import { SecretValue } from "@/components/ui/secret-value";
import { QueryView } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";

type Pending = { kind: "revoke" | "roll"; id: string } | null;

/** API keys, live or test (docs/test-mode.md): create (shown once), roll with an overlap, revoke; when each was last used. */
export function ApiKeysCard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [newKey, setNewKey] = useState<{ key: string; note: string } | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const list = useQuery(trpc.apiKeys.list.queryOptions({ limit: 100 }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.pathKey() });
  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({
      onSuccess: async (result) => {
        setNewKey({ key: result.key, note: "New API key created." });
        await refresh();
      },
    }),
  );
  const roll = useMutation(
    trpc.apiKeys.roll.mutationOptions({
      onSuccess: async (result) => {
        setPending(null);
        setNewKey({ key: result.key, note: "Key rolled: the old key keeps working for one hour." });
        await refresh();
      },
    }),
  );
  const revoke = useMutation(trpc.apiKeys.revoke.mutationOptions({ onSuccess: async () => (setPending(null), await refresh()) }));
  const error = create.error ?? roll.error ?? revoke.error;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get("name") ?? "").trim();
    const mode = form.get("mode") === "test" ? "test" : "live";
    setNewKey(null);
    create.mutate({ name: name || null, mode });
    event.currentTarget.reset();
  }

  return (
    <section className="card" aria-labelledby="api-keys-heading">
      <h2 id="api-keys-heading">API keys</h2>
      <form className="form-row" onSubmit={submit}>
        <div className="field">
          <label htmlFor="key-name">Name (optional)</label>
          <input id="key-name" name="name" maxLength={100} placeholder="Production server" />
        </div>
        <div className="field">
          <label htmlFor="key-mode">Mode</label>
          <select id="key-mode" name="mode" defaultValue="live">
            <option value="live">Live (sk_live_)</option>
            <option value="test">Test (sk_test_)</option>
          </select>
        </div>
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create key"}
        </button>
      </form>
      {newKey ? (
        <div className="alert alert-warning" role="status" style={{ margin: "0.75rem 0" }}>
          <p style={{ marginTop: 0 }}>{newKey.note} Store it now: it is shown only this once.</p>
          <SecretValue label="New API key" value={newKey.key} shownAtFirst />
        </div>
      ) : null}
      {error ? (
        <p className="alert alert-error" role="alert">
          {error.message}
        </p>
      ) : null}
      <QueryView query={list} what="API keys" empty="No API keys. Create one to call the API.">
        {(page) => (
          <TableWrap label="API keys">
            <table className="table">
              <caption className="visually-hidden">API keys, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((key) => (
                  <tr key={key.id}>
                    <td>{key.name ?? "—"}</td>
                    <td>
                      <code>
                        {key.mode === "test" ? "sk_test_" : "sk_live_"}
                        {key.hint}
                      </code>
                    </td>
                    <td>
                      <StatusBadge status={key.status} />
                      {key.status === "expiring" ? <span className="muted"> until {formatDate(key.expiresAt)}</span> : null}
                    </td>
                    <td>{key.lastUsedAt ? formatDate(key.lastUsedAt) : "never"}</td>
                    <td>{formatDate(key.createdAt)}</td>
                    <td>
                      {key.status !== "active" ? null : pending?.id === key.id ? (
                        <span className="form-row">
                          <span>{pending.kind === "roll" ? "Roll this key?" : "Revoke now? Calls with it fail at once."}</span>
                          <button
                            type="button"
                            className={pending.kind === "roll" ? "btn btn-small btn-primary" : "btn btn-small btn-danger"}
                            onClick={() => (pending.kind === "roll" ? roll.mutate({ id: key.id, overlapSeconds: 3600 }) : revoke.mutate({ id: key.id }))}
                          >
                            Yes, {pending.kind}
                          </button>
                          <button type="button" className="btn btn-small" onClick={() => setPending(null)}>
                            Cancel
                          </button>
                        </span>
                      ) : (
                        <span className="form-row">
                          <button type="button" className="btn btn-small" onClick={() => setPending({ kind: "roll", id: key.id })} aria-label={`Roll key ${key.hint}`}>
                            Roll…
                          </button>
                          <button type="button" className="btn btn-small btn-danger" onClick={() => setPending({ kind: "revoke", id: key.id })} aria-label={`Revoke key ${key.hint}`}>
                            Revoke…
                          </button>
                        </span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </QueryView>
    </section>
  );
}
