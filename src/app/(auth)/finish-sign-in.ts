import "server-only";
import { AuthError } from "next-auth";
import { redirect } from "next/navigation";
import { signIn } from "@/server/auth/auth";
import { dashboardAccess, homeOf } from "@/server/auth/dashboard-routes";
import type { Role } from "@/server/auth/permissions";
import { roleOfIssuedSession } from "@/server/auth/issued-session";
import { forgetSignInToken } from "@/server/auth/sign-in-cookie";

export interface SignInState {
  error?: string;
  email?: string;
  /** The step after the password (services/sign-in/begin.ts): a second factor, or setting one up. */
  step?: "second_factor" | "enrolment";
  methods?: { totp: boolean; recoveryCode: boolean; passkey: boolean };
}

/** Only a dashboard page of this site may be a post-login destination, and only one the signed-in role may open. */
function safeDestination(value: FormDataEntryValue | null, role: Role | null): string {
  const home = role ? homeOf(role) : "/dashboard";
  const text = typeof value === "string" ? value : "";
  if (!role || !/^\/dashboard(\/[\w\-/]*)?(\?[^#]*)?$/.test(text)) return home;
  return dashboardAccess(role, text.split("?")[0]!).outcome === "allowed" ? text : home;
}

/**
 * The last step of every sign-in: next-auth makes the session cookie from the challenge token (auth.ts,
 * `authorize`), then the browser goes where it was headed. Errors come back as the form's state.
 */
export async function finishSignIn(callbackUrl: FormDataEntryValue | null, credentials: Record<string, string>): Promise<SignInState> {
  try {
    await signIn("credentials", { ...credentials, redirect: false });
  } catch (error) {
    if (error instanceof AuthError) {
      const code = (error as AuthError & { code?: string }).code;
      if (code === "rate_limited") return { error: "Too many failed attempts. Wait a while, then try again." };
      if (code === "suspended") return { error: "This merchant account is suspended. Contact support." };
      if (code === "sign_in_expired") return { error: "This sign-in expired. Sign in again." };
      if (code === "second_factor_replayed") return { error: "That code was already used. Wait for the next one." };
      if (code === "invalid_second_factor") return { error: "That was not accepted. Check it and try again." };
      return { error: "Signing in failed. Try again." };
    }
    throw error;
  }
  await forgetSignInToken();
  redirect(safeDestination(callbackUrl, await roleOfIssuedSession()));
}

