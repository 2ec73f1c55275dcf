import type { SessionUser } from "./session";

/**
 * The signed-in dashboard user for the current request. Until the dashboard's next-auth login is wired in
 * (issue 8), nobody is signed in.
 */
export async function getDashboardSession(): Promise<SessionUser | null> {
  return null;
}
