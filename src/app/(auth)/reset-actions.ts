"use server";

import { headers } from "next/headers";
import { newId } from "@/lib/ids";
import { consumeResetRequest } from "@/server/auth/reset-limit";
import { clientIpFromHeaders } from "@/server/auth/request-ip";
import { fromHeaders } from "@/server/net/request-client";
import { forgetSessions } from "@/server/auth/session-lookup";
import { getRuntime } from "@/server/runtime";
import { createServiceContext } from "@/server/services/create-context";
import { isServiceError, RateLimitedError } from "@/server/services/errors";
import { requestPasswordReset } from "@/server/services/password-resets/request";
import { resetPassword } from "@/server/services/password-resets/reset";

async function anonymous() {
  const runtime = await getRuntime();
  const requestHeaders = await headers();
  const ip = clientIpFromHeaders(requestHeaders, runtime.env.TRUSTED_PROXY_HOPS);
  return { runtime, ip, ctx: createServiceContext(runtime, { type: "anonymous", ip }, newId("request"), fromHeaders(requestHeaders, ip)) };
}

export interface ResetRequestState {
  outcome?: "sent_if_account" | "unavailable";
  error?: string;
  email?: string;
}

/** "Forgot your password?": the same answer whether or not the address has an account (services/password-resets). */
export async function requestReset(_previous: ResetRequestState, form: FormData): Promise<ResetRequestState> {
  const email = String(form.get("email") ?? "").trim();
  const { runtime, ip, ctx } = await anonymous();
  try {
    await consumeResetRequest(runtime, ip, email);
    const { mail } = await requestPasswordReset({ ctx, input: { email } });
    return { outcome: mail, email };
  } catch (error) {
    if (error instanceof RateLimitedError) return { email, error: "Too many requests. Try again in an hour." };
    if (isServiceError(error) && error.code === "validation_failed") return { email, error: "Type the email address you sign in with." };
    throw error;
  }
}

export interface ResetState {
  done?: boolean;
  error?: string;
  fieldErrors?: Record<string, string>;
}

/** The new password from a reset link; every session of the account ends with it. */
export async function setNewPassword(_previous: ResetState, form: FormData): Promise<ResetState> {
  const newPassword = String(form.get("newPassword") ?? "");
  if (newPassword !== String(form.get("confirmPassword") ?? "")) {
    return { error: "The new passwords do not match.", fieldErrors: { confirmPassword: "does not match the new password" } };
  }
  const { runtime, ctx } = await anonymous();
  try {
    const { userId } = await resetPassword({ ctx, input: { token: String(form.get("token") ?? ""), newPassword } });
    // This process forgets the ended sessions at once; every other within the session cache's TTL.
    forgetSessions(runtime, { userId });
    return { done: true };
  } catch (error) {
    if (error instanceof RateLimitedError) return { error: "Too many attempts from your network. Try again later." };
    if (isServiceError(error)) {
      const fieldErrors = Object.fromEntries((error.errors ?? []).map((field) => [field.path.split(".").pop()!, field.message]));
      return { error: error.detail, fieldErrors };
    }
    throw error;
  }
}
