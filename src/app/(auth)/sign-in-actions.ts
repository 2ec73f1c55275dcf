"use server";

import { headers } from "next/headers";
import { newId } from "@/lib/ids";
import { clientIpFromHeaders } from "@/server/auth/request-ip";
import { fromHeaders } from "@/server/net/request-client";
import { keepSignInToken, signInToken } from "@/server/auth/sign-in-cookie";
import { getRuntime } from "@/server/runtime";
import { createServiceContext } from "@/server/services/create-context";
import { isServiceError, RateLimitedError } from "@/server/services/errors";
import { confirmEnrolmentAtSignIn, startEnrolmentAtSignIn } from "@/server/services/sign-in/enrol";
import { passkeyOptionsForSignIn, startPasskeySignIn } from "@/server/services/sign-in/passkey-options";
import { finishSignIn, type SignInState } from "./finish-sign-in";

// The steps of a sign-in after the password (docs/team-and-security.md, "Signing in"). The challenge token lives
// in an httpOnly cookie (auth/sign-in-cookie.ts); each action reads it, none takes it from the page.

async function anonymousContext() {
  const runtime = await getRuntime();
  const requestHeaders = await headers();
  const ip = clientIpFromHeaders(requestHeaders, runtime.env.TRUSTED_PROXY_HOPS);
  return createServiceContext(runtime, { type: "anonymous", ip }, newId("request"), fromHeaders(requestHeaders, ip));
}

const EXPIRED = "This sign-in expired. Sign in again.";

function messageOf(error: unknown): string {
  if (error instanceof RateLimitedError) return "Too many failed attempts. Wait a while, then try again.";
  if (isServiceError(error)) return error.detail;
  throw error;
}

/** The second step with a code: the authenticator app's (`method=totp`) or a recovery code (`method=recovery_code`). */
export async function verifySecondFactor(previous: SignInState, form: FormData): Promise<SignInState> {
  const token = await signInToken();
  if (!token) return { error: EXPIRED };
  const method = form.get("method") === "recovery_code" ? "recovery_code" : "totp";
  const result = await finishSignIn(form.get("callbackUrl"), { token, method, code: String(form.get("code") ?? "") });
  return { ...result, step: "second_factor", methods: previous.methods };
}

/** Options for the browser to answer with one of the user's passkeys, as the second step. */
export async function passkeyOptionsForSecondStep(): Promise<{ options?: unknown; error?: string }> {
  const token = await signInToken();
  if (!token) return { error: EXPIRED };
  try {
    return await passkeyOptionsForSignIn({ ctx: await anonymousContext(), input: { token } });
  } catch (error) {
    return { error: messageOf(error) };
  }
}

/** "Sign in with a passkey": a new sign-in whose only step is the passkey. */
export async function startPasskeySignInAction(): Promise<{ options: unknown }> {
  const { token, options } = await startPasskeySignIn({ ctx: await anonymousContext() });
  await keepSignInToken(token, 5 * 60);
  return { options };
}

/** The browser's passkey answer (either flow), as JSON; signs in and redirects, or answers the error. */
export async function finishWithPasskey(callbackUrl: string, response: string): Promise<SignInState> {
  const token = await signInToken();
  if (!token) return { error: EXPIRED };
  return finishSignIn(callbackUrl, { token, method: "passkey", response });
}

export interface EnrolmentState {
  error?: string;
  setup?: { secret: string; uri: string; qrSvg: string };
  recoveryCodes?: string[];
}

/** A second factor is required and the user has none: a new authenticator app secret, while signing in. */
export async function startEnrolment(): Promise<EnrolmentState> {
  const token = await signInToken();
  if (!token) return { error: EXPIRED };
  try {
    return { setup: await startEnrolmentAtSignIn({ ctx: await anonymousContext(), input: { token } }) };
  } catch (error) {
    return { error: messageOf(error) };
  }
}

/** Confirms that app with a code: answers the recovery codes, shown once, before the session starts. */
export async function confirmEnrolment(previous: EnrolmentState, form: FormData): Promise<EnrolmentState> {
  const token = await signInToken();
  if (!token) return { error: EXPIRED };
  try {
    const { recoveryCodes } = await confirmEnrolmentAtSignIn({ ctx: await anonymousContext(), input: { token, code: String(form.get("code") ?? "") } });
    return { setup: previous.setup, recoveryCodes };
  } catch (error) {
    return { setup: previous.setup, error: messageOf(error) };
  }
}

/** After the recovery codes were shown: the session starts. */
export async function continueAfterEnrolment(callbackUrl: string): Promise<SignInState> {
  const token = await signInToken();
  if (!token) return { error: EXPIRED };
  return finishSignIn(callbackUrl, { token, method: "password" });
}
