"use server";

import { AuthError } from "next-auth";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { newId } from "@/lib/ids";
import { signIn } from "@/server/auth/auth";
import { roleOfIssuedSession } from "@/server/auth/issued-session";
import { clientIpFromHeaders } from "@/server/auth/request-ip";
import { consumeSignUpAttempt } from "@/server/auth/sign-up-limit";
import { getRuntime } from "@/server/runtime";
import { createServiceContext } from "@/server/services/create-context";
import { isServiceError, RateLimitedError } from "@/server/services/errors";
import { registerMerchant } from "@/server/services/merchants/register";
import { registerMerchantInput } from "@/server/services/merchants/schemas";

// Server actions: Next.js refuses them unless the request's Origin matches the host (CSRF), and next-auth
// sets the session cookie from them directly.

export interface LogInState {
  error?: string;
  email?: string;
}

/** Only a dashboard path of this site may be a post-login destination, and only the signed-in role's own. */
function safeDestination(value: FormDataEntryValue | null, role: "merchant" | "staff" | null): string {
  const home = role === "staff" ? "/dashboard/staff" : "/dashboard";
  const text = typeof value === "string" ? value : "";
  if (!/^\/dashboard(\/[\w\-/]*)?(\?[^#]*)?$/.test(text)) return home;
  const staffPath = text.startsWith("/dashboard/staff");
  return staffPath === (role === "staff") ? text : home;
}

export async function logIn(_previous: LogInState, form: FormData): Promise<LogInState> {
  const email = String(form.get("email") ?? "");
  try {
    await signIn("credentials", { email, password: String(form.get("password") ?? ""), redirect: false });
  } catch (error) {
    if (error instanceof AuthError) {
      const code = (error as AuthError & { code?: string }).code;
      if (code === "rate_limited") return { email, error: "Too many failed attempts. Wait a while, then try again." };
      if (code === "suspended") return { email, error: "This merchant account is suspended. Contact support." };
      if (error.type === "CredentialsSignin") return { email, error: "The email or the password is wrong." };
      return { email, error: "Signing in failed. Try again." };
    }
    throw error;
  }
  redirect(safeDestination(form.get("callbackUrl"), await roleOfIssuedSession()));
}

export interface SignUpState {
  error?: string;
  fieldErrors?: Record<string, string>;
  values?: { name: string; email: string; website: string };
  created?: { merchantId: string; apiKey: string; webhookSecret: string; signedIn: boolean };
}

export async function signUp(_previous: SignUpState, form: FormData): Promise<SignUpState> {
  const values = {
    name: String(form.get("name") ?? ""),
    email: String(form.get("email") ?? ""),
    website: String(form.get("website") ?? "").trim(),
  };
  const password = String(form.get("password") ?? "");
  const requestHeaders = await headers();
  const runtime = await getRuntime();
  const ip = clientIpFromHeaders(requestHeaders, runtime.env.TRUSTED_PROXY_HOPS);
  const ctx = createServiceContext(runtime, { type: "anonymous", ip }, newId("request"));
  const input = { name: values.name, email: values.email, password, website: values.website || undefined };
  const checked = registerMerchantInput.safeParse(input);
  if (!checked.success) {
    const fieldErrors = Object.fromEntries(checked.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
    return { values, error: "Some fields need attention.", fieldErrors };
  }
  try {
    await consumeSignUpAttempt(runtime, ip);
    // The same verb as POST /api/v1/merchant/register.
    const result = await registerMerchant({ ctx, input });
    // Sign the new merchant in; if that fails they can still sign in by hand: the keys must be shown either way.
    const signedIn = await signIn("credentials", { email: values.email, password, redirect: false }).then(
      () => true,
      () => false,
    );
    return {
      created: { merchantId: result.merchant.id, apiKey: result.apiKey, webhookSecret: result.webhookSecret, signedIn },
    };
  } catch (error) {
    if (error instanceof RateLimitedError) return { values, error: "Too many sign-ups from your network. Try again later." };
    if (isServiceError(error)) {
      const fieldErrors = Object.fromEntries((error.errors ?? []).map((field) => [field.path.split(".").pop()!, field.message]));
      return { values, error: error.detail, fieldErrors };
    }
    throw error;
  }
}
