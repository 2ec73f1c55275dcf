"use client";

import { useActionState } from "react";
import { changePasswordAction, type PasswordState } from "@/app/dashboard/actions";
import { Field } from "@/components/ui/field";

export function PasswordForm({ changed = false }: { changed?: boolean }) {
  const [state, action, pending] = useActionState<PasswordState, FormData>(changePasswordAction, {});
  const errors = state.fieldErrors ?? {};
  return (
    <form action={action} className="form" aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      {changed && !state.error ? (
        <p className="alert alert-success" role="status">
          Password changed. Other sessions have been signed out.
        </p>
      ) : null}
      {state.error ? (
        <p className="alert alert-error" role="alert">
          {state.error}
        </p>
      ) : null}
      <Field id="currentPassword" name="currentPassword" type="password" label="Current password" autoComplete="current-password" required error={errors.currentPassword} />
      <Field id="newPassword" name="newPassword" type="password" label="New password" autoComplete="new-password" required minLength={12} hint="At least 12 characters." error={errors.newPassword} />
      <Field id="confirmPassword" name="confirmPassword" type="password" label="Repeat the new password" autoComplete="new-password" required error={errors.confirmPassword} />
      <div>
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending ? "Changing…" : "Change password"}
        </button>
      </div>
    </form>
  );
}
