"use client";

import Link from "next/link";
import { useActionState } from "react";
import { signUp, type SignUpState } from "@/app/(auth)/actions";
import { Field } from "@/components/ui/field";
import { NewCredentials } from "./new-credentials";

export function SignUpForm() {
  const [state, action, pending] = useActionState<SignUpState, FormData>(signUp, {});
  // The page's one H1 is the form's: "Create a merchant account", then "Your account is ready" in its place.
  if (state.created) return <NewCredentials {...state.created} />;
  const errors = state.fieldErrors ?? {};
  return (
    <form action={action} className="form" noValidate aria-labelledby="sign-up-heading">
      <h1 id="sign-up-heading">Create a merchant account</h1>
      {state.error ? (
        <p className="alert alert-error" role="alert">
          {state.error}
        </p>
      ) : null}
      <Field id="name" name="name" label="Business name" autoComplete="organization" required defaultValue={state.values?.name} error={errors.name} />
      <Field id="email" name="email" type="email" label="Email" autoComplete="email" required defaultValue={state.values?.email} error={errors.email} />
      <Field
        id="password"
        name="password"
        type="password"
        label="Password"
        autoComplete="new-password"
        required
        minLength={12}
        hint="At least 12 characters."
        error={errors.password}
      />
      <Field id="website" name="website" type="url" label="Website (optional)" placeholder="https://shop.example" defaultValue={state.values?.website} error={errors.website} />
      <button type="submit" className="btn btn-primary" disabled={pending}>
        {pending ? "Creating your account…" : "Create account"}
      </button>
      <p className="muted">
        Already registered? <Link href="/login">Sign in</Link>
      </p>
    </form>
  );
}
