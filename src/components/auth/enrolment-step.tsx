"use client";

import { useActionState, useEffect, useState, useTransition } from "react";
import { confirmEnrolment, continueAfterEnrolment, startEnrolment, type EnrolmentState } from "@/app/(auth)/sign-in-actions";
import { Field } from "@/components/ui/field";
import { RecoveryCodes, TotpSetupDetails } from "./totp-setup";

/**
 * A second factor is required (by the team, or for staff in production) and the account has none: the user sets up
 * an authenticator app now, before their session starts, and saves their recovery codes.
 */
export function EnrolmentStep({ callbackUrl }: { callbackUrl: string }) {
  const [started, setStarted] = useState<EnrolmentState>({});
  const [state, action, pending] = useActionState<EnrolmentState, FormData>(confirmEnrolment, {});
  const [continuing, startContinuing] = useTransition();
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void startEnrolment().then(setStarted);
  }, []);
  const setup = state.setup ?? started.setup;
  if (state.recoveryCodes) {
    return (
      <div className="form">
        <h2>Save your recovery codes</h2>
        <RecoveryCodes codes={state.recoveryCodes} />
        {error ? (
          <p className="alert alert-error" role="alert">
            {error}
          </p>
        ) : null}
        <button
          type="button"
          className="btn btn-primary"
          disabled={continuing}
          onClick={() => startContinuing(async () => setError((await continueAfterEnrolment(callbackUrl)).error ?? null))}
        >
          {continuing ? "Signing in…" : "I saved them: continue"}
        </button>
      </div>
    );
  }
  return (
    <div className="form">
      <h2>Set up a second factor</h2>
      <p>Your account must sign in with a second factor. Set up an authenticator app to continue.</p>
      {started.error ?? state.error ? (
        <p className="alert alert-error" role="alert">
          {state.error ?? started.error}
        </p>
      ) : null}
      {setup ? (
        <form action={action} className="form" noValidate>
          <TotpSetupDetails setup={setup} />
          <Field id="code" name="code" label="Code from the app" inputMode="numeric" autoComplete="one-time-code" required />
          <button type="submit" className="btn btn-primary" disabled={pending}>
            {pending ? "Checking…" : "Confirm"}
          </button>
        </form>
      ) : started.error ? null : (
        <p className="muted">Preparing…</p>
      )}
    </div>
  );
}
