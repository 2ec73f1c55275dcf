"use client";

import { TableWrap } from "@/components/ui/table-wrap";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useSubmission } from "@/components/ui/use-submission";
import { useState, type FormEvent } from "react";
import { StatusBadge } from "@/components/ui/badge";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { formatDate } from "@/components/ui/format";
import { SecretValue } from "@/components/ui/secret-value";
import { QueryView } from "@/components/ui/states";
import { usePermissions } from "@/components/shell/use-permissions";
import { useTRPC } from "@/lib/trpc/client";
import { RESTRICTED_KEY_RESOURCES, SCOPE_LEVELS, type RestrictedKeyResource, type RestrictedKeyScopes, type ScopeLevel } from "@/lib/restricted-key-scopes";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

/** `merchant_profile` → "merchant profile". */
const resourceLabel = (resource: RestrictedKeyResource) => resource.replaceAll("_", " ");

/** A key's prefix: `sk_` (full access) or `rk_` (restricted), and its mode. */
const prefixOf = (key: { mode: string; scopes: RestrictedKeyScopes | null }) => `${key.scopes ? "rk" : "sk"}_${key.mode === "test" ? "test" : "live"}_`;

/** What a restricted key may touch, e.g. "payments: read, refunds: write"; a secret key has full access. */
function scopesSummary(scopes: RestrictedKeyScopes | null): string {
  if (!scopes) return "Full access";
  const granted = RESTRICTED_KEY_RESOURCES.filter((resource) => scopes[resource] !== "none").map((resource) => `${resourceLabel(resource)}: ${scopes[resource]}`);
  return granted.length ? granted.join(", ") : "Nothing (every resource none)";
}

/**
 * API keys, live or test (docs/test-mode.md), secret (`sk_`, full access) or restricted (`rk_`, a level per resource:
 * docs/team-and-security.md): create (shown once), roll with an overlap, revoke; when each was last used.
 */
export function ApiKeysCard() {
  const trpc = useTRPC();
  const refreshAfterWrite = useRefreshAfterWrite();
  const [newKey, setNewKey] = useState<{ key: string; note: string } | null>(null);
  const [restricted, setRestricted] = useState(false);
  const list = useQuery(trpc.apiKeys.list.queryOptions({ limit: 100 }));
  const refresh = () => refreshAfterWrite(trpc.apiKeys.pathKey());
  // A replay (the same submission again) has no key: it was shown to the first answer, which stays on screen.
  const create = useSubmission(
    trpc.apiKeys.create.mutationOptions({
      onSuccess: async (result) => {
        if (result.key) setNewKey({ key: result.key, note: "New API key created." });
        await refresh();
      },
    }),
  );
  const roll = useSubmission(
    trpc.apiKeys.roll.mutationOptions({
      onSuccess: async (result) => {
        if (result.key) setNewKey({ key: result.key, note: "Key rolled: the old key keeps working for one hour." });
        await refresh();
      },
    }),
  );
  const revoke = useMutation(trpc.apiKeys.revoke.mutationOptions({ onSuccess: refresh }));
  const error = create.error ?? roll.error ?? revoke.error;
  // A role that only reads keys sees them, and no button that would change them.
  const { mayCall } = usePermissions();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get("name") ?? "").trim();
    const mode = form.get("mode") === "test" ? "test" : "live";
    const scopes = restricted
      ? Object.fromEntries(RESTRICTED_KEY_RESOURCES.map((resource) => [resource, String(form.get(`scope-${resource}`) ?? "none") as ScopeLevel]))
      : undefined;
    void create.submit({ name: name || null, mode, ...(scopes ? { scopes } : {}) });
    event.currentTarget.reset();
    setRestricted(false);
  }

  /** The key is stored: the next "Create key" is a new submission, even with the same name and mode. */
  function done() {
    setNewKey(null);
    create.startOver();
    roll.startOver();
  }

  return (
    <section className="card" aria-labelledby="api-keys-heading">
      <h2 id="api-keys-heading">API keys</h2>
      {mayCall("apiKeys.create") ? (
        <form className="form-row" onSubmit={submit} data-procedure="apiKeys.create">
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
          <div className="field">
            <label htmlFor="key-kind">Access</label>
            <select id="key-kind" name="kind" value={restricted ? "restricted" : "secret"} onChange={(event) => setRestricted(event.target.value === "restricted")}>
              <option value="secret">Full access (sk_)</option>
              <option value="restricted">Restricted (rk_)</option>
            </select>
          </div>
          {restricted ? (
            <fieldset className="form-row" style={{ flexBasis: "100%" }}>
              <legend>What the key may touch (write includes read; a restricted key never manages keys)</legend>
              {RESTRICTED_KEY_RESOURCES.map((resource) => (
                <div className="field" key={resource}>
                  <label htmlFor={`scope-${resource}`}>{resourceLabel(resource)}</label>
                  <select id={`scope-${resource}`} name={`scope-${resource}`} defaultValue="none">
                    {SCOPE_LEVELS.map((level) => (
                      <option key={level} value={level}>
                        {level}
                      </option>
                    ))}
                  </select>
                </div>
              ))}
            </fieldset>
          ) : null}
          <button type="submit" className="btn btn-primary" disabled={create.pending}>
            {create.pending ? "Creating…" : "Create key"}
          </button>
        </form>
      ) : null}
      {newKey ? (
        <div className="alert alert-warning" role="status" style={{ margin: "0.75rem 0" }}>
          <p style={{ marginTop: 0 }}>{newKey.note} Store it now: it is shown only this once.</p>
          <SecretValue label="New API key" value={newKey.key} shownAtFirst />
          <button type="button" className="btn btn-small" onClick={done} style={{ marginTop: "0.5rem" }}>
            Done: I have stored it
          </button>
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
                  <th scope="col">Access</th>
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
                        {prefixOf(key)}
                        {key.hint}
                      </code>
                    </td>
                    <td>{scopesSummary(key.scopes)}</td>
                    <td>
                      <StatusBadge kind="apiKey" status={key.status} />
                      {key.status === "expiring" ? <span className="muted"> until {formatDate(key.expiresAt)}</span> : null}
                    </td>
                    <td>{key.lastUsedAt ? formatDate(key.lastUsedAt) : "never"}</td>
                    <td>{formatDate(key.createdAt)}</td>
                    <td>
                      {key.status !== "active" ? null : (
                        <span className="form-row">
                          {mayCall("apiKeys.roll") ? (
                            <ConfirmAction
                              label="Roll…"
                              ariaLabel={`Roll key ${key.hint}`}
                              procedure="apiKeys.roll"
                              question="Roll this key? The new key is shown once; this one keeps working for an hour."
                              confirmLabel="Yes, roll"
                              danger={false}
                              busy={roll.pending}
                              onOpen={roll.startOver}
                              onConfirm={async () => (await roll.submit({ id: key.id, overlapSeconds: 3600 })) !== undefined}
                            />
                          ) : null}
                          {mayCall("apiKeys.revoke") ? (
                            <ConfirmAction
                              label="Revoke…"
                              ariaLabel={`Revoke key ${key.hint}`}
                              procedure="apiKeys.revoke"
                              question="Revoke now? Calls with it fail at once."
                              confirmLabel="Yes, revoke"
                              busy={revoke.isPending}
                              onConfirm={() => revoke.mutateAsync({ id: key.id })}
                            />
                          ) : null}
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
