import type { SessionUser } from "./session";

// What the session token carries (encrypted, httpOnly) and what `auth()` exposes.
declare module "next-auth" {
  interface Session {
    user: SessionUser;
  }
  interface User {
    role: SessionUser["role"];
    merchantId: string | null;
    stamp: string;
  }
}

declare module "@auth/core/jwt" {
  interface JWT {
    uid?: string;
    role?: SessionUser["role"];
    merchantId?: string | null;
    stamp?: string;
  }
}
