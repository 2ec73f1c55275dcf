"use client";

import Link from "next/link";
import { useActionState } from "react";
import { logIn, type LogInState } from "@/app/(auth)/actions";
import { Field } from "@/components/ui/field";
import { EnrolmentStep } from "./enrolment-step";
import { PasskeySignInButton } from "./passkey-sign-in";
import { SecondFactorStep } from "./second-factor-step";

/** Signing in: the password, then (when the account has or needs one) the second factor (docs/team-and-security.md). */
export function LoginForm({ callbackUrl, notice }: { callbackUrl: string; notice?: string }) {
  const [state, action, pending] = useActionState<LogInState, FormData>(logIn, {});
  if (state.step === "second_factor") return <SecondFactorStep callbackUrl={callbackUrl} methods={state.methods!} />;
  if (state.step === "enrolment") return <EnrolmentStep callbackUrl={callbackUrl} />;
  return (
    <>
      <form action={action} className="form" noValidate>
        {notice ? <p className="alert alert-warning">{notice}</p> : null}
        {state.error ? (
          <p className="alert alert-error" role="alert">
            {state.error}
          </p>
        ) : null}
        <input type="hidden" name="callbackUrl" value={callbackUrl} />
        <Field id="email" name="email" type="email" label="Email" autoComplete="username webauthn" required defaultValue={state.email} />
        <Field id="password" name="password" type="password" label="Password" autoComplete="current-password" required />
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending ? "Signing in…" : "Sign in"}
        </button>
        <p className="muted">
          <Link href="/forgot-password">Forgot your password?</Link>
        </p>
      </form>
      <div className="form">
        <PasskeySignInButton callbackUrl={callbackUrl} />
        <p className="muted">
          New merchant? <Link href="/sign-up">Create an account</Link>
        </p>
      </div>
    </>
  );
}
