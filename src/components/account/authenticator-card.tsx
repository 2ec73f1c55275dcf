"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { RecoveryCodes, TotpSetupDetails } from "@/components/auth/totp-setup";
import { Field } from "@/components/ui/field";
import { useTRPC } from "@/lib/trpc/client";
import type { AccountSecurity } from "./types";
import { useRefreshAfterWrite } from "@/components/ui/use-refresh-after-write";

/** The authenticator app (TOTP): set up with a code from it, recovery codes shown once, removed with the password. */
export function AuthenticatorCard({ security }: { security: AccountSecurity }) {
  const trpc = useTRPC();
  const refreshAfterWrite = useRefreshAfterWrite();
  const refresh = () => refreshAfterWrite(trpc.account.security.queryKey());
  const [codes, setCodes] = useState<string[] | null>(null);
  const [removing, setRemoving] = useState(false);
  const start = useMutation(trpc.account.startTotp.mutationOptions());
  const confirm = useMutation(trpc.account.confirmTotp.mutationOptions({ onSuccess: async (result) => (setCodes(result.recoveryCodes), start.reset(), await refresh()) }));
  const disable = useMutation(trpc.account.disableTotp.mutationOptions({ onSuccess: async () => (setRemoving(false), await refresh()) }));
  const regenerate = useMutation(trpc.account.regenerateRecoveryCodes.mutationOptions({ onSuccess: async (result) => (setCodes(result.recoveryCodes), await refresh()) }));
  const error = start.error ?? confirm.error ?? disable.error ?? regenerate.error;

  function submitCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    confirm.mutate({ code: String(new FormData(event.currentTarget).get("code") ?? "") });
  }
  function submitPassword(event: FormEvent<HTMLFormElement>, then: "remove" | "codes") {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    if (then === "remove") disable.mutate({ password });
    else regenerate.mutate({ password });
  }

  return (
    <section className="card" aria-labelledby="totp-heading">
      <h2 id="totp-heading">Authenticator app</h2>
      {error ? (
        <p className="alert alert-error" role="alert">
          {error.message}
        </p>
      ) : null}
      {codes ? (
        <>
          <RecoveryCodes codes={codes} />
          <button type="button" className="btn" onClick={() => setCodes(null)}>
            I saved them
          </button>
        </>
      ) : null}
      {security.totp ? (
        <>
          <p>
            On: signing in asks for a code from your app. Recovery codes left: <strong>{security.recoveryCodesLeft}</strong>.
          </p>
          {removing ? (
            <form className="form" onSubmit={(event) => submitPassword(event, ((event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null)?.value === "codes" ? "codes" : "remove")}>
              <Field id="totp-password" name="password" type="password" label="Your password" autoComplete="current-password" required />
              <div className="form-row">
                <button type="submit" name="do" value="remove" className="btn btn-danger" disabled={disable.isPending}>
                  Remove the app
                </button>
                <button type="submit" name="do" value="codes" className="btn" disabled={regenerate.isPending}>
                  New recovery codes
                </button>
                <button type="button" className="btn btn-link" onClick={() => setRemoving(false)}>
                  Cancel
                </button>
              </div>
            </form>
          ) : (
            <button type="button" className="btn" onClick={() => setRemoving(true)}>
              Remove or renew recovery codes…
            </button>
          )}
        </>
      ) : start.data ? (
        <form className="form" onSubmit={submitCode} noValidate>
          <TotpSetupDetails setup={start.data} />
          <Field id="totp-code" name="code" label="Code from the app" inputMode="numeric" autoComplete="one-time-code" required />
          <button type="submit" className="btn btn-primary" disabled={confirm.isPending}>
            {confirm.isPending ? "Checking…" : "Turn on"}
          </button>
        </form>
      ) : (
        <>
          <p>Off. With an app such as a phone's authenticator, signing in also asks for a six-digit code.</p>
          <button type="button" className="btn btn-primary" onClick={() => start.mutate()} disabled={start.isPending}>
            Set up an authenticator app
          </button>
        </>
      )}
    </section>
  );
}
