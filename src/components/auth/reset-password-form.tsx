"use client";

import Link from "next/link";
import { useActionState } from "react";
import { setNewPassword, type ResetState } from "@/app/(auth)/reset-actions";
import { Field } from "@/components/ui/field";

export function ResetPasswordForm({ token }: { token: string }) {
  const [state, action, pending] = useActionState<ResetState, FormData>(setNewPassword, {});
  const errors = state.fieldErrors ?? {};
  if (state.done) {
    return (
      <div className="form">
        <p className="alert alert-success" role="status">
          Your password was changed, and every session of your account was signed out.
        </p>
        <Link href="/login" className="btn btn-primary">
          Sign in
        </Link>
      </div>
    );
  }
  if (!token) {
    return (
      <p className="alert alert-error" role="alert">
        This link is incomplete. Open the whole link from the email, or <Link href="/forgot-password">ask for a new one</Link>.
      </p>
    );
  }
  return (
    <form action={action} className="form" noValidate>
      {state.error ? (
        <p className="alert alert-error" role="alert">
          {state.error} {errors.newPassword || errors.confirmPassword ? null : <Link href="/forgot-password">Ask for a new link</Link>}
        </p>
      ) : null}
      <input type="hidden" name="token" value={token} />
      <Field id="newPassword" name="newPassword" type="password" label="New password" autoComplete="new-password" required minLength={12} hint="At least 12 characters." error={errors.newPassword} />
      <Field id="confirmPassword" name="confirmPassword" type="password" label="Repeat the new password" autoComplete="new-password" required error={errors.confirmPassword} />
      <button type="submit" className="btn btn-primary" disabled={pending}>
        {pending ? "Saving…" : "Set the new password"}
      </button>
    </form>
  );
}
