import type { SessionUser } from "@/server/services/users/session-user";

// What the session token carries (encrypted, httpOnly) and what `auth()` exposes.
declare module "next-auth" {
  interface Session {
    user: SessionUser;
  }
  interface User {
    role: SessionUser["role"];
    merchantId: string | null;
    access: SessionUser["access"];
    /** The server-side session created at sign-in (services/sessions). */
    sessionId: string;
  }
}

declare module "@auth/core/jwt" {
  interface JWT {
    uid?: string;
    role?: SessionUser["role"];
    merchantId?: string | null;
    /** The role deciding what they may do, as of the session's last check (the route guard's convenience only). */
    access?: SessionUser["access"];
    /** The id of the session's row (services/sessions): checked on every use. */
    sid?: string;
    /** Staff: the session's view-as grant, as the session row says (refreshed with it). */
    viewAs?: SessionUser["viewAs"];
  }
}
