import { getToken } from "next-auth/jwt";
import { cookies } from "next/headers";
import { getEnv } from "@/env";
import type { SessionUser } from "@/server/services/users/session-user";

/**
 * The role in the session cookie a server action has just set (the request's own cookies are still the
 * old ones). Used to send each role to its own start page after signing in.
 */
export async function roleOfIssuedSession(): Promise<SessionUser["access"] | null> {
  const jar = await cookies();
  const headers = new Headers({ cookie: jar.getAll().map((cookie) => `${cookie.name}=${cookie.value}`).join("; ") });
  for (const secureCookie of [false, true]) {
    const token = await getToken({ req: { headers }, secret: getEnv().AUTH_SECRET, secureCookie });
    if (token?.access) return token.access;
  }
  return null;
}
