import { TRPCError } from "@trpc/server";
import { activeViewAs, type SessionUser } from "@/server/services/users/session-user";

/** The only mutations a session viewing as a merchant may make: ending the view, and recording the pages it opens. */
export const VIEW_AS_MUTATIONS: ReadonlySet<string> = new Set(["staff.stopViewAs", "staff.viewAsPageViewed"]);

/**
 * "View as merchant" (docs/team-and-security.md) in the dashboard's API: while a staff session's grant lasts, every
 * mutation but VIEW_AS_MUTATIONS is refused (FORBIDDEN) whatever procedure it is. Which merchant the merchant
 * procedures then read, as whom and with which permissions, is auth/view-as.ts's `merchantSideOf`.
 */
export function refuseMutationWhileViewingAs(session: SessionUser | null, now: Date, call: { type: string; path: string }): void {
  if (call.type === "mutation" && !VIEW_AS_MUTATIONS.has(call.path) && activeViewAs(session, now)) {
    throw new TRPCError({ code: "FORBIDDEN", message: "Viewing as a merchant is read-only: stop viewing to make changes." });
  }
}
