"use client";

import Link from "next/link";
import { useActionState, useState } from "react";
import type { SignInState } from "@/app/(auth)/finish-sign-in";
import { verifySecondFactor } from "@/app/(auth)/sign-in-actions";
import { Field } from "@/components/ui/field";
import { PasskeySecondStepButton } from "./passkey-sign-in";

type Methods = NonNullable<SignInState["methods"]>;

/** The second step: the authenticator app's code, a recovery code, or a passkey (whichever the account has). */
export function SecondFactorStep({ callbackUrl, methods }: { callbackUrl: string; methods: Methods }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(verifySecondFactor, { methods });
  const [useRecovery, setUseRecovery] = useState(!methods.totp && methods.recoveryCode);
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  const error = state.error ?? passkeyError;
  return (
    <div className="form">
      <h2>Second step</h2>
      {error ? (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      ) : null}
      {methods.totp || methods.recoveryCode ? (
        <form action={action} className="form" noValidate>
          <input type="hidden" name="callbackUrl" value={callbackUrl} />
          <input type="hidden" name="method" value={useRecovery ? "recovery_code" : "totp"} />
          {useRecovery ? (
            <Field id="code" key="recovery" name="code" label="Recovery code" autoComplete="off" required hint="One of the codes you saved when setting up the app. Each works once." />
          ) : (
            <Field id="code" key="totp" name="code" label="Code from your authenticator app" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]*" required autoFocus />
          )}
          <button type="submit" className="btn btn-primary" disabled={pending}>
            {pending ? "Checking…" : "Verify"}
          </button>
          {methods.totp && methods.recoveryCode ? (
            <button type="button" className="btn btn-link" onClick={() => setUseRecovery(!useRecovery)}>
              {useRecovery ? "Use the authenticator app instead" : "Use a recovery code instead"}
            </button>
          ) : null}
        </form>
      ) : null}
      {methods.passkey ? <PasskeySecondStepButton callbackUrl={callbackUrl} onError={setPasskeyError} /> : null}
      <p className="muted">
        <Link href="/login">Start again</Link>
      </p>
    </div>
  );
}
