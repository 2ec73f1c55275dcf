"use client";

import Link from "next/link";
import { useActionState } from "react";
import { acceptAsNewPerson, acceptAsSignedIn, type AcceptState } from "@/app/(auth)/invite-actions";
import { Field } from "@/components/ui/field";

/** A new person's form: name and password (a second factor comes at sign-in when the merchant requires one). */
export function AcceptAsNewForm({ token, email }: { token: string; email: string }) {
  const [state, action, pending] = useActionState<AcceptState, FormData>(acceptAsNewPerson, {});
  const errors = state.fieldErrors ?? {};
  if (state.done) {
    return (
      <div className="form">
        <p className="alert alert-success" role="status">
          Your account is ready. Sign in as {state.email} to start.
        </p>
        <Link href="/login" className="btn btn-primary">
          Sign in
        </Link>
      </div>
    );
  }
  return (
    <form action={action} className="form" noValidate>
      {state.error ? (
        <p className="alert alert-error" role="alert">
          {state.error}
        </p>
      ) : null}
      <input type="hidden" name="token" value={token} />
      <p>
        Your account will be <strong>{email}</strong>.
      </p>
      <Field id="name" name="name" label="Your name" autoComplete="name" required maxLength={200} error={errors.name} />
      <Field id="password" name="password" type="password" label="Password" autoComplete="new-password" required minLength={12} hint="At least 12 characters." error={errors.password} />
      <Field id="confirmPassword" name="confirmPassword" type="password" label="Repeat the password" autoComplete="new-password" required error={errors.confirmPassword} />
      <button type="submit" className="btn btn-primary" disabled={pending}>
        {pending ? "Joining…" : "Join the team"}
      </button>
    </form>
  );
}

/** The invited person, signed in: one button. */
export function AcceptAsSignedInForm({ token, merchantName }: { token: string; merchantName: string }) {
  const [state, action, pending] = useActionState<AcceptState, FormData>(acceptAsSignedIn, {});
  return (
    <form action={action} className="form">
      {state.error ? (
        <p className="alert alert-error" role="alert">
          {state.error}
        </p>
      ) : null}
      <input type="hidden" name="token" value={token} />
      <button type="submit" className="btn btn-primary" disabled={pending}>
        {pending ? "Joining…" : `Join ${merchantName}`}
      </button>
    </form>
  );
}
