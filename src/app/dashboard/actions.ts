"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { clientIpFromHeaders } from "@/server/auth/request-ip";
import { fromHeaders } from "@/server/net/request-client";
import { signIn, signOut } from "@/server/auth/auth";
import { getDashboardSession } from "@/server/auth/current-session";
import { activeViewAs, actorOfSession } from "@/server/services/users/session-user";
import { forgetSessions } from "@/server/auth/session-lookup";
import { newId } from "@/lib/ids";
import { getRuntime } from "@/server/runtime";
import { createServiceContext } from "@/server/services/create-context";
import { isServiceError } from "@/server/services/errors";
import { changePassword } from "@/server/services/users/change-password";
import { continueSignIn } from "@/server/services/sign-in/continue";

/** Signs out: next-auth's signOut event ends the server-side session too (auth.ts). */
export async function signOutAction() {
  await signOut({ redirectTo: "/login" });
}

export interface PasswordState {
  error?: string;
  fieldErrors?: Record<string, string>;
}

/**
 * Changes the signed-in user's password. Every session of theirs ends with it (services/sessions), this one
 * included; this tab is signed in again at once, as a new session with a new cookie.
 */
export async function changePasswordAction(_previous: PasswordState, form: FormData): Promise<PasswordState> {
  const user = await getDashboardSession();
  if (!user) return { error: "Your session has ended. Sign in again." };
  const runtime = await getRuntime();
  // Viewing as a merchant is read-only whatever the change (as every tRPC mutation then: trpc/view-as.ts).
  if (activeViewAs(user, runtime.now())) return { error: "Viewing as a merchant is read-only: stop viewing to make changes." };
  const requestHeaders = await headers();
  const ctx = createServiceContext(runtime, actorOfSession(user), newId("request"), fromHeaders(requestHeaders, clientIpFromHeaders(requestHeaders, runtime.env.TRUSTED_PROXY_HOPS)));
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
  // This process forgets the ended sessions at once; every other process within the cache's TTL.
  forgetSessions(runtime, { userId: user.id });
  // The password was just proven inside a live session: the new session needs no second factor again.
  const { token } = await continueSignIn({ ctx });
  await signIn("credentials", { token, method: "password", redirect: false }).catch(() => undefined);
  // A fresh navigation, so the page renders with the new session's cookie (not the request's old one).
  redirect(`${user.role === "staff" ? "/dashboard/staff/account" : "/dashboard/settings"}?password=changed`);
}
