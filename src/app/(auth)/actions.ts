"use server";

import { headers } from "next/headers";
import { newId } from "@/lib/ids";
import { signIn } from "@/server/auth/auth";
import { keepSignInToken } from "@/server/auth/sign-in-cookie";
import { finishSignIn, type SignInState } from "./finish-sign-in";
import { beginSignIn } from "@/server/services/sign-in/begin";
import { clientIpFromHeaders } from "@/server/auth/request-ip";
import { fromHeaders } from "@/server/net/request-client";
import { consumeSignUpAttempt } from "@/server/auth/sign-up-limit";
import { getRuntime } from "@/server/runtime";
import { createServiceContext } from "@/server/services/create-context";
import { isServiceError, RateLimitedError } from "@/server/services/errors";
import { registerMerchant } from "@/server/services/merchants/register";
import { registerMerchantInput } from "@/server/services/merchants/schemas";

// Server actions: Next.js refuses them unless the request's Origin matches the host (CSRF), and next-auth
// sets the session cookie from them directly.

export type LogInState = SignInState;

/** The password step: straight into a session when no second factor is needed, else on to the next step. */
export async function logIn(_previous: LogInState, form: FormData): Promise<LogInState> {
  const email = String(form.get("email") ?? "");
  const runtime = await getRuntime();
  const requestHeaders = await headers();
  const ip = clientIpFromHeaders(requestHeaders, runtime.env.TRUSTED_PROXY_HOPS);
  const ctx = createServiceContext(runtime, { type: "anonymous", ip }, newId("request"), fromHeaders(requestHeaders, ip));
  let begun: Awaited<ReturnType<typeof beginSignIn>>;
  try {
    begun = await beginSignIn({ ctx, input: { email, password: String(form.get("password") ?? "") } });
  } catch (error) {
    if (error instanceof RateLimitedError) return { email, error: "Too many failed attempts. Wait a while, then try again." };
    if (isServiceError(error) && error.code === "forbidden") return { email, error: "This merchant account is suspended. Contact support." };
    if (isServiceError(error)) return { email, error: "The email or the password is wrong." };
    throw error;
  }
  if (begun.needs !== "nothing") {
    await keepSignInToken(begun.token);
    return { email, step: begun.needs, methods: begun.methods };
  }
  return finishSignIn(form.get("callbackUrl"), { token: begun.token, method: "password" });
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
  const ctx = createServiceContext(runtime, { type: "anonymous", ip }, newId("request"), fromHeaders(requestHeaders, ip));
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
    const signedIn = await beginSignIn({ ctx, input: { email: values.email, password } })
      .then((begun) => signIn("credentials", { token: begun.token, method: "password", redirect: false }))
      .then(
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
