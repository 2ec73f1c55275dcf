import { TRPCError } from "@trpc/server";
import { activeViewAs, type SessionUser } from "@/server/services/users/session-user";
import type { Actor } from "@/server/services/context";
import type { Role } from "@/server/auth/permissions";

/** What a staff member viewing as a merchant may read there: what the team's viewer may (no keys, no audit log). */
export const VIEW_AS_ROLE: Role = "member:viewer";

/** The only mutations a session viewing as a merchant may make: ending the view, and recording the pages it opens. */
export const VIEW_AS_MUTATIONS: ReadonlySet<string> = new Set(["staff.stopViewAs", "staff.viewAsPageViewed"]);

/**
 * "View as merchant" (docs/team-and-security.md) in the dashboard's API, in one place: while a staff session's grant
 * lasts, every mutation but VIEW_AS_MUTATIONS is refused (FORBIDDEN) whatever procedure it is, and merchant
 * procedures act for the viewed merchant as that staff member (a `staff` actor with the merchant: verbs that change a
 * merchant's data refuse staff too). Null when the session is not viewing as anyone.
 */
export function viewAsActor(session: SessionUser | null, now: Date, call: { type: string; path: string }): Extract<Actor, { type: "staff" }> | null {
  const grant = activeViewAs(session, now);
  if (!grant || !session) return null;
  if (call.type === "mutation" && !VIEW_AS_MUTATIONS.has(call.path)) {
    throw new TRPCError({ code: "FORBIDDEN", message: "Viewing as a merchant is read-only: stop viewing to make changes." });
  }
  return { type: "staff", userId: session.id, merchantId: grant.merchantId, sessionId: session.sessionId };
}
