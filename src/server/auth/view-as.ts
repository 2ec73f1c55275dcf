import type { Actor } from "@/server/services/context";
import { activeViewAs, type SessionUser, type ViewAsGrant } from "@/server/services/users/session-user";
import { dashboardAccess, dashboardRouteOf, homeOf, navigationWhere, type DashboardRoute } from "./dashboard-routes";
import { holds, may, permissionList, PERMISSIONS, SELF_SERVICE, type Permission, type Role } from "./permissions";

/**
 * "View as merchant" in the dashboard (docs/team-and-security.md, "Viewing as a merchant"), decided here once for
 * every adapter: whose merchant a session's merchant pages, procedures and exports show and with which permissions
 * (`merchantSideOf`), which pages a session may open (`admitPage`), what the client is told it may do
 * (`permissionsHere`). Pure: the session is as auth/session-lookup.ts resolved it (the grant as of its row).
 */

/** What a staff member viewing as a merchant may read there: what the team's viewer may (no keys, no audit log). */
export const VIEW_AS_ROLE: Role = "member:viewer";

/**
 * A permission a viewing session may use: VIEW_AS_ROLE's, but not its self-service one (`own_account.write`): the
 * staff member's own account is not the merchant's, and is not managed from the merchant's dashboard.
 */
export function viewAsMay(permission: Permission): boolean {
  return holds(VIEW_AS_ROLE, permission) && !SELF_SERVICE.includes(permission);
}

const viewAsOpens = (route: DashboardRoute) => route.anyOf.some(viewAsMay);

/** The merchant pages a viewing session may open, in navigation order: its header's links. */
export function viewAsNavigation(): { href: string; label: string }[] {
  return navigationWhere(viewAsOpens);
}

/** Where a viewing session starts, and where it is sent from a page it may not open: the merchant's overview. */
export function viewAsHome(): string {
  return viewAsNavigation()[0]?.href ?? "/dashboard";
}

/**
 * May a session viewing as a merchant open this path? The proxy's question for staff (it cannot know whether the
 * session holds a grant: the cookie is not rewritten when one starts), so it lets staff through to these and the
 * page's own guard decides with the live session.
 */
export function viewAsMayOpen(pathname: string): boolean {
  const route = dashboardRouteOf(pathname);
  return route !== null && viewAsOpens(route);
}

/** The merchant side of the dashboard as one session sees it: whose data, acting as whom, allowed to do what. */
export interface MerchantSide {
  merchantId: string;
  /** Who the service layer sees: the member (in the switch's mode), or the viewing staff member (live). */
  actor: Extract<Actor, { type: "user" | "staff" }> & { merchantId: string };
  may: (permission: Permission) => boolean;
  /** The grant when a staff session views the merchant read-only; null for the merchant's own member. */
  viewingAs: ViewAsGrant | null;
}

/**
 * The one answer to "which merchant does this session act for here": a member's, for the merchant their session
 * acts for (their role's permissions in the dashboard's mode), or, while a staff session's grant lasts, the viewed
 * merchant's (`viewAsMay`, live mode, as that staff member). Null for anyone else (staff without a grant).
 */
export function merchantSideOf(user: SessionUser | null, now: Date, livemode: boolean): MerchantSide | null {
  if (!user) return null;
  const grant = activeViewAs(user, now);
  if (grant) {
    return { merchantId: grant.merchantId, actor: { type: "staff", userId: user.id, merchantId: grant.merchantId, sessionId: user.sessionId }, may: viewAsMay, viewingAs: grant };
  }
  if (user.role !== "merchant" || !user.merchantId) return null;
  const access = user.access;
  return {
    merchantId: user.merchantId,
    actor: { type: "user", userId: user.id, merchantId: user.merchantId, livemode, sessionId: user.sessionId },
    may: (permission) => may(access, permission, livemode),
    viewingAs: null,
  };
}

/** What the signed-in person may do here and now, as the client is told (it hides the rest; the server refuses it). */
export function permissionsHere(user: SessionUser | null, now: Date, livemode: boolean): Permission[] {
  if (!user) return [];
  if (activeViewAs(user, now)) return PERMISSIONS.filter(viewAsMay);
  return permissionList(user.access, user.role === "staff" || livemode);
}

export type PageAdmission = { outcome: "allowed"; user: SessionUser; viewingAs: ViewAsGrant | null } | { outcome: "redirect"; to: string };

/**
 * May this signed-in user open this dashboard page now? By the route table with their live role; while a staff
 * session's grant lasts, the merchant pages `viewAsMay` opens (the user answered then acts for the viewed
 * merchant), and every other page, the staff console's included, sends it to the merchant's overview: a viewing
 * session is in the merchant's dashboard until Stop or the end of the grant. A path that is no page (the
 * dashboard's 404) is open to anyone signed in.
 */
export function admitPage(user: SessionUser, pathname: string, now: Date): PageAdmission {
  const grant = activeViewAs(user, now);
  if (grant) {
    const route = dashboardRouteOf(pathname);
    if (route && !viewAsOpens(route)) return { outcome: "redirect", to: viewAsHome() };
    return { outcome: "allowed", user: { ...user, merchantId: grant.merchantId }, viewingAs: grant };
  }
  if (dashboardAccess(user.access, pathname).outcome !== "allowed") return { outcome: "redirect", to: homeOf(user.access) };
  return { outcome: "allowed", user, viewingAs: null };
}
