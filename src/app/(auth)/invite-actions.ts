"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { newId } from "@/lib/ids";
import { getDashboardSession } from "@/server/auth/current-session";
import { clientIpFromHeaders } from "@/server/auth/request-ip";
import { forgetSessions } from "@/server/auth/session-lookup";
import { getRuntime } from "@/server/runtime";
import { createServiceContext } from "@/server/services/create-context";
import { isServiceError, RateLimitedError } from "@/server/services/errors";
import { acceptInvitation, acceptInvitationAsNew } from "@/server/services/team/invitations";
import { switchMerchant } from "@/server/services/team/switch-merchant";
import { actorOfSession } from "@/server/services/users/session-user";

export interface AcceptState {
  done?: boolean;
  email?: string;
  error?: string;
  fieldErrors?: Record<string, string>;
}

function refusal(error: unknown): AcceptState {
  if (error instanceof RateLimitedError) return { error: "Too many attempts from your network. Try again later." };
  if (isServiceError(error)) {
    const fieldErrors = Object.fromEntries((error.errors ?? []).map((field) => [field.path.split(".").pop()!, field.message]));
    return { error: error.detail, fieldErrors };
  }
  throw error;
}

/** A new person accepts: their name and password make their login; they then sign in as usual. */
export async function acceptAsNewPerson(_previous: AcceptState, form: FormData): Promise<AcceptState> {
  const password = String(form.get("password") ?? "");
  if (password !== String(form.get("confirmPassword") ?? "")) {
    return { error: "The passwords do not match.", fieldErrors: { confirmPassword: "does not match the password" } };
  }
  const runtime = await getRuntime();
  const ip = clientIpFromHeaders(await headers(), runtime.env.TRUSTED_PROXY_HOPS);
  const ctx = createServiceContext(runtime, { type: "anonymous", ip }, newId("request"));
  try {
    const joined = await acceptInvitationAsNew({ ctx, input: { token: String(form.get("token") ?? ""), name: String(form.get("name") ?? ""), password } });
    return { done: true, email: joined.email };
  } catch (error) {
    return refusal(error);
  }
}

/** The signed-in person whose email was invited joins, and their session switches to the merchant joined. */
export async function acceptAsSignedIn(_previous: AcceptState, form: FormData): Promise<AcceptState> {
  const user = await getDashboardSession();
  if (!user || user.role !== "merchant") return { error: "Sign in first." };
  const runtime = await getRuntime();
  const ctx = createServiceContext(runtime, actorOfSession(user), newId("request"));
  let merchantId: string;
  try {
    ({ merchantId } = await acceptInvitation({ ctx, input: { token: String(form.get("token") ?? "") } }));
    await switchMerchant({ ctx, input: { merchantId } });
  } catch (error) {
    return refusal(error);
  }
  forgetSessions(runtime, { sessionId: user.sessionId });
  redirect("/dashboard");
}
