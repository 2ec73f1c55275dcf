import type { Role } from "@/lib/roles";
import type { Actor } from "@/server/services/context";

/**
 * The signed-in dashboard user, as the tRPC context and server components see it.
 * `merchantId` is the merchant a merchant's user acts for in this session (the switcher changes it); staff have
 * none. `access` is their role there (or their staff role): what the permission table asks.
 */
export interface SessionUser {
  id: string;
  email: string;
  role: "merchant" | "staff";
  merchantId: string | null;
  access: Role;
  /** The server-side session (services/sessions) this request is signed in with; absent for in-process callers. */
  sessionId?: string;
  /** Staff only: the merchant this session views read-only, until when (ISO 8601), while the grant lasts. */
  viewAs?: ViewAsGrant;
}

export interface ViewAsGrant {
  merchantId: string;
  until: string;
}

/** The session's view-as grant if it still lasts at `now` (the row keeps an expired one until Stop or the next grant). */
export function activeViewAs(user: SessionUser | null, now: Date): ViewAsGrant | null {
  const grant = user?.role === "staff" ? user.viewAs : undefined;
  return grant && Date.parse(grant.until) > now.getTime() ? grant : null;
}

/** Who a signed-in dashboard user acts as in the service layer (live mode unless a caller says otherwise). */
export function actorOfSession(user: SessionUser): Extract<Actor, { type: "user" | "staff" }> {
  return user.role === "staff"
    ? { type: "staff", userId: user.id, sessionId: user.sessionId }
    : { type: "user", userId: user.id, merchantId: user.merchantId!, sessionId: user.sessionId };
}
