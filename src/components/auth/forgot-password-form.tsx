"use client";

import Link from "next/link";
import { useActionState } from "react";
import { requestReset, type ResetRequestState } from "@/app/(auth)/reset-actions";
import { Field } from "@/components/ui/field";

/** `mailOn`: whether this service sends mail (SMTP_URL); without it, resetting takes an administrator. */
export function ForgotPasswordForm({ mailOn }: { mailOn: boolean }) {
  const [state, action, pending] = useActionState<ResetRequestState, FormData>(requestReset, mailOn ? {} : { outcome: "unavailable" });
  if (state.outcome === "sent_if_account") {
    return (
      <div className="form">
        <p className="alert alert-success" role="status">
          If an account uses {state.email}, a link to choose a new password is on its way. It works once, for 30 minutes.
        </p>
        <p className="muted">
          <Link href="/login">Back to sign in</Link>
        </p>
      </div>
    );
  }
  if (state.outcome === "unavailable") {
    return (
      <div className="form">
        <p className="alert alert-warning" role="status">
          This service does not send email, so it cannot send you a reset link. Ask your administrator to help you reset your password.
        </p>
        <p className="muted">
          <Link href="/login">Back to sign in</Link>
        </p>
      </div>
    );
  }
  return (
    <form action={action} className="form" noValidate>
      <p>Type the email address you sign in with. We will send a link to choose a new password.</p>
      {state.error ? (
        <p className="alert alert-error" role="alert">
          {state.error}
        </p>
      ) : null}
      <Field id="email" name="email" type="email" label="Email" autoComplete="username" required defaultValue={state.email} />
      <button type="submit" className="btn btn-primary" disabled={pending}>
        {pending ? "Sending…" : "Send the link"}
      </button>
      <p className="muted">
        <Link href="/login">Back to sign in</Link>
      </p>
    </form>
  );
}
