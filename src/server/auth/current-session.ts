import { cache } from "react";
import { auth } from "./auth";
import type { SessionUser } from "./session";

/**
 * The signed-in dashboard user for the current request, checked against the database (see the `jwt`
 * callback in auth.ts), or null. Cached per request: layouts and pages may all ask.
 */
export const getDashboardSession = cache(async (): Promise<SessionUser | null> => {
  const session = await auth();
  const user = session?.user;
  if (!user?.id) return null;
  return { id: user.id, email: user.email, role: user.role, merchantId: user.merchantId };
});
