"use server";

import { redirect } from "next/navigation";
import { signIn, signOut } from "@/server/auth/auth";
import { getDashboardSession } from "@/server/auth/current-session";
import { newId } from "@/lib/ids";
import { getRuntime } from "@/server/runtime";
import { createServiceContext } from "@/server/services/create-context";
import { isServiceError } from "@/server/services/errors";
import { changePassword } from "@/server/services/users/change-password";

export async function signOutAction() {
  await signOut({ redirectTo: "/login" });
}

export interface PasswordState {
  error?: string;
  fieldErrors?: Record<string, string>;
}

/**
 * Changes the signed-in user's password. That ends every session issued before (see resolve-session), so
 * this one is re-issued right away with the new password.
 */
export async function changePasswordAction(_previous: PasswordState, form: FormData): Promise<PasswordState> {
  const user = await getDashboardSession();
  if (!user) return { error: "Your session has ended. Sign in again." };
  const runtime = await getRuntime();
  const actor =
    user.role === "staff"
      ? ({ type: "staff", userId: user.id } as const)
      : ({ type: "user", userId: user.id, merchantId: user.merchantId! } as const);
  const ctx = createServiceContext(runtime, actor, newId("request"));
  const newPassword = String(form.get("newPassword") ?? "");
  if (newPassword !== String(form.get("confirmPassword") ?? "")) {
    return { error: "The new passwords do not match.", fieldErrors: { confirmPassword: "does not match the new password" } };
  }
  try {
    await changePassword({ ctx, input: { currentPassword: String(form.get("currentPassword") ?? ""), newPassword } });
  } catch (error) {
    if (isServiceError(error)) {
      const fieldErrors = Object.fromEntries((error.errors ?? []).map((field) => [field.path.split(".").pop()!, field.message]));
      return { error: error.detail, fieldErrors };
    }
    throw error;
  }
  await signIn("credentials", { email: user.email, password: newPassword, redirect: false }).catch(() => undefined);
  // A fresh navigation, so the page renders with the re-issued session cookie (not the request's old one).
  redirect(`${user.role === "staff" ? "/dashboard/staff/account" : "/dashboard/settings"}?password=changed`);
}
