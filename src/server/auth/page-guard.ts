import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getRuntime } from "@/server/runtime";
import { fromHeaders } from "@/server/net/request-client";
import type { SessionUser } from "@/server/services/users/session-user";
import { getDashboardSession } from "./current-session";
import { openPage } from "./page-admission";
import { clientIpFromHeaders } from "./request-ip";

/**
 * Every dashboard page's first line: the signed-in user, whose live role (the session's, checked against the
 * database through session-lookup.ts) may open `pathname` by the route table; otherwise to the sign-in page or
 * the role's own start page. The proxy only knows the audience (its cookie's role may be stale), and a layout
 * does not know which page it wraps, so each page asks for itself. While a staff session views a merchant
 * (auth/view-as.ts), it opens that merchant's pages the view allows, each recorded in the merchant's audit log
 * (auth/page-admission.ts), and the user answered acts for the viewed merchant.
 */
export async function guardPage(pathname: string): Promise<SessionUser> {
  const user = await getDashboardSession();
  if (!user) redirect(`/login?callbackUrl=${encodeURIComponent(pathname)}`);
  const runtime = await getRuntime();
  const requestHeaders = await headers();
  const client = fromHeaders(requestHeaders, clientIpFromHeaders(requestHeaders, runtime.env.TRUSTED_PROXY_HOPS));
  const prefetch = requestHeaders.get("next-router-prefetch") !== null || requestHeaders.get("next-router-segment-prefetch") !== null;
  const admission = await openPage(runtime, user, pathname, { client, prefetch });
  if (admission.outcome === "redirect") redirect(admission.to);
  return admission.user;
}
