"use client";

import { TableWrap } from "@/components/ui/table-wrap";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useSubmission } from "@/components/ui/use-submission";
import { useState, type FormEvent } from "react";
import { StatusBadge } from "@/components/ui/badge";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { formatDate } from "@/components/ui/format";
import { QueryView } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { usePermissions } from "@/components/shell/use-permissions";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

/** Public keys the merchant publishes in its directory (JWKS); history kept, private material refused. */
export function PublishedKeysCard({ merchantId }: { merchantId: string }) {
  const trpc = useTRPC();
  const refreshAfterWrite = useRefreshAfterWrite();
  const [published, setPublished] = useState<string | null>(null);
  const { mayCall } = usePermissions();
  const list = useQuery(trpc.publishedKeys.list.queryOptions({ limit: 50 }));
  const refresh = () => refreshAfterWrite(trpc.publishedKeys.pathKey());
  const publish = useSubmission(
    trpc.publishedKeys.publish.mutationOptions({
      onSuccess: async (result) => {
        setPublished(`Published ${result.data.map((key) => key.kid).join(", ")}.`);
        await refresh();
      },
    }),
  );
  const revoke = useMutation(trpc.publishedKeys.revoke.mutationOptions({ onSuccess: refresh }));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPublished(null);
    const form = new FormData(event.currentTarget);
    const text = String(form.get("key") ?? "").trim();
    const use = form.get("use") === "enc" ? "enc" : "sig";
    const kid = String(form.get("kid") ?? "").trim() || undefined;
    const label = String(form.get("label") ?? "").trim() || undefined;
    let entry: { pem?: string; jwk?: Record<string, unknown> };
    if (text.startsWith("{")) {
      try {
        entry = { jwk: JSON.parse(text) as Record<string, unknown> };
      } catch {
        publish.reset();
        setPublished("That JWK is not valid JSON.");
        return;
      }
    } else entry = { pem: text };
    void publish.submit({ keys: [{ ...entry, use, kid, label }] });
  }

  return (
    <section className="card" aria-labelledby="published-heading">
      <h2 id="published-heading">Published public keys</h2>
      <p className="muted">
        Served as a JWK Set at <code>/api/v1/directory/{merchantId}</code>. Only public keys: anything containing private material is refused
        and not stored.
      </p>
      {mayCall("publishedKeys.publish") ? (
        <form className="form" onSubmit={submit} data-procedure="publishedKeys.publish">
          <div className="field">
            <label htmlFor="pk-key">Public key (PEM or JWK)</label>
            <textarea id="pk-key" name="key" required rows={5} placeholder={"-----BEGIN PUBLIC KEY-----\n…"} />
          </div>
          <div className="form-row">
            <div className="field">
              <label htmlFor="pk-use">Use</label>
              <select id="pk-use" name="use" defaultValue="sig">
                <option value="sig">Signing (sig)</option>
                <option value="enc">Encryption (enc)</option>
              </select>
            </div>
            <div className="field">
              <label htmlFor="pk-kid">Key id (optional)</label>
              <input id="pk-kid" name="kid" placeholder="thumbprint by default" />
            </div>
            <div className="field">
              <label htmlFor="pk-label">Label (optional)</label>
              <input id="pk-label" name="label" />
            </div>
            <button type="submit" className="btn btn-primary" disabled={publish.pending}>
              {publish.pending ? "Publishing…" : "Publish"}
            </button>
          </div>
          {published ? <p role="status">{published}</p> : null}
          {publish.error || revoke.error ? (
            <p className="alert alert-error" role="alert">
              {(publish.error ?? revoke.error)!.message}
            </p>
          ) : null}
        </form>
      ) : null}
      <QueryView query={list} what="published keys" empty="No public keys published yet. Paste a PEM or JWK public key above to serve it in your JWK Set.">
        {(page) => (
          <TableWrap label="Published keys">
            <table className="table">
              <caption className="visually-hidden">Published keys with their history, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Key id</th>
                  <th scope="col">Use</th>
                  <th scope="col">Type</th>
                  <th scope="col">Label</th>
                  <th scope="col">Status</th>
                  <th scope="col">Published</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((key) => (
                  <tr key={key.id}>
                    <td>
                      <code>{key.kid}</code>
                    </td>
                    <td>{key.use}</td>
                    <td>
                      {key.jwk.kty}
                      {key.jwk.crv ? ` ${key.jwk.crv}` : ""}
                    </td>
                    <td>{key.label ?? "—"}</td>
                    <td>
                      <StatusBadge kind="publishedKey" status={key.status} />
                    </td>
                    <td>{formatDate(key.createdAt)}</td>
                    <td>
                      {key.status === "active" && mayCall("publishedKeys.revoke") ? (
                        <ConfirmAction
                          label="Revoke…"
                          ariaLabel={`Revoke published key ${key.kid}`}
                          procedure="publishedKeys.revoke"
                          question="Revoke this key? It leaves your key directory at once."
                          confirmLabel="Yes, revoke"
                          busy={revoke.isPending}
                          onConfirm={() => revoke.mutateAsync({ id: key.id })}
                        />
                      ) : null}
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
