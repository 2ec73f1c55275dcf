import { cache } from "react";
import { auth } from "./auth";
import type { SessionUser } from "@/server/services/users/session-user";

/**
 * The signed-in dashboard user for the current request, its session checked to be live (the `jwt` callback in
 * auth.ts, through auth/session-lookup.ts), or null. Cached per request: layouts and pages may all ask.
 */
export const getDashboardSession = cache(async (): Promise<SessionUser | null> => {
  const session = await auth();
  const user = session?.user;
  if (!user?.id) return null;
  return { id: user.id, email: user.email, role: user.role, merchantId: user.merchantId, access: user.access, sessionId: user.sessionId, viewAs: user.viewAs };
});
