import { redirect } from "next/navigation";
import type { SessionUser } from "@/server/services/users/session-user";
import { getDashboardSession } from "./current-session";
import { dashboardAccess, homeOf } from "./dashboard-routes";

/**
 * Every dashboard page's first line: the signed-in user, whose live role (the session's, checked against the
 * database through session-lookup.ts) may open `pathname` by the route table; otherwise to the sign-in page or
 * the role's own start page. The proxy only knows the audience (its cookie's role may be stale), and a layout
 * does not know which page it wraps, so each page asks for itself.
 */
export async function guardPage(pathname: string): Promise<SessionUser> {
  const user = await getDashboardSession();
  if (!user) redirect(`/login?callbackUrl=${encodeURIComponent(pathname)}`);
  if (dashboardAccess(user.access, pathname).outcome !== "allowed") redirect(homeOf(user.access));
  return user;
}
