"use client";

import { startRegistration } from "@simplewebauthn/browser";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Field } from "@/components/ui/field";
import { formatDate } from "@/components/ui/format";
import { useTRPC } from "@/lib/trpc/client";
import type { AccountSecurity } from "./types";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

/** Passkeys: add one (the browser's own prompt), list them, remove one with the password. */
export function PasskeysCard({ security }: { security: AccountSecurity }) {
  const trpc = useTRPC();
  const refreshAfterWrite = useRefreshAfterWrite();
  const refresh = () => refreshAfterWrite(trpc.account.security.queryKey());
  const [error, setError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [removingId, setRemovingId] = useState<string | null>(null);
  const startPasskey = useMutation(trpc.account.startPasskey.mutationOptions());
  const finishPasskey = useMutation(trpc.account.finishPasskey.mutationOptions());
  const remove = useMutation(trpc.account.removePasskey.mutationOptions({ onSuccess: async () => (setRemovingId(null), await refresh()) }));

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "").trim() || "Passkey";
    setError(null);
    setAdding(true);
    try {
      const { token, options } = await startPasskey.mutateAsync();
      let response;
      try {
        response = await startRegistration({ optionsJSON: options });
      } catch {
        setError("No passkey was created. Try again.");
        return;
      }
      await finishPasskey.mutateAsync({ token, name, response: response as never });
      await refresh();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : "The passkey could not be added.");
    } finally {
      setAdding(false);
    }
  }

  function submitRemoval(event: FormEvent<HTMLFormElement>, id: string) {
    event.preventDefault();
    remove.mutate({ id, password: String(new FormData(event.currentTarget).get("password") ?? "") });
  }

  return (
    <section className="card" aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading">Passkeys</h2>
      <p>A passkey signs you in with your device&apos;s screen lock or a security key, without a password.</p>
      {error ?? remove.error ? (
        <p className="alert alert-error" role="alert">
          {error ?? remove.error?.message}
        </p>
      ) : null}
      {security.passkeys.length > 0 ? (
        <ul className="plain-list" aria-label="Your passkeys">
          {security.passkeys.map((key) => (
            <li key={key.id}>
              <strong>{key.name}</strong> <span className="muted">added {formatDate(key.createdAt)}, last used {formatDate(key.lastUsedAt)}</span>{" "}
              {removingId === key.id ? (
                <form className="form-row" onSubmit={(event) => submitRemoval(event, key.id)}>
                  <Field id={`passkey-password-${key.id}`} name="password" type="password" label="Your password" autoComplete="current-password" required />
                  <button type="submit" className="btn btn-danger btn-small" disabled={remove.isPending}>
                    Remove
                  </button>
                  <button type="button" className="btn btn-link" onClick={() => setRemovingId(null)}>
                    Cancel
                  </button>
                </form>
              ) : (
                <button type="button" className="btn btn-small" onClick={() => setRemovingId(key.id)}>
                  Remove…
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      <form className="form-row" onSubmit={(event) => void add(event)}>
        <Field id="passkey-name" name="name" label="Name" placeholder="Laptop" maxLength={100} />
        <button type="submit" className="btn btn-primary" disabled={adding}>
          {adding ? "Waiting for the passkey…" : "Add a passkey"}
        </button>
      </form>
    </section>
  );
}
