import { holdsAny, ROLES, type Permission, type Role } from "./permissions";

/**
 * Every dashboard path and the permission it needs (any one of `anyOf`): the one source the route guard
 * (src/proxy.ts, by audience), each page's guard (auth/page-guard.ts, by the live role), the sign-in redirect and
 * the navigation derive from. A test fails when a page or
 * route handler under src/app/dashboard has no entry here.
 *
 * `kind: "endpoint"` marks route handlers that a page calls with `fetch` or a download link: refused, they answer
 * 401/403 instead of being redirected to an HTML page (which the upload read as a network failure and the export
 * saved as `staff.html`). `nav` is the label of a page in the navigation, in this order.
 *
 * Patterns: `*` is one path segment, `**` any number (none included). The first entry that matches decides.
 */
export interface DashboardRoute {
  pattern: string;
  anyOf: readonly Permission[];
  kind: "page" | "endpoint";
  nav?: string;
}

export const DASHBOARD_ROUTES: readonly DashboardRoute[] = [
  // Support staff's console.
  { pattern: "/dashboard/staff", anyOf: ["staff.payments.read"], kind: "page", nav: "Payment search" },
  { pattern: "/dashboard/staff/payments/**", anyOf: ["staff.payments.read"], kind: "page" },
  { pattern: "/dashboard/staff/merchants/**", anyOf: ["staff.merchants.read"], kind: "page", nav: "Merchants" },
  { pattern: "/dashboard/staff/audit", anyOf: ["staff.audit.read"], kind: "page", nav: "Audit log" },
  { pattern: "/dashboard/staff/system", anyOf: ["staff.system.read"], kind: "page", nav: "System" },
  { pattern: "/dashboard/staff/account", anyOf: ["staff.account.write"], kind: "page", nav: "Account" },
  // Any other staff path (the 404 inside the console) is staff's too. (Staff's sign-in security is on their Account page.)
  { pattern: "/dashboard/staff/**", anyOf: ["staff.account.write"], kind: "page" },
  // Reconciliation's upload and export serve a merchant's own users and staff (who name the merchant).
  { pattern: "/dashboard/reconciliation/upload", anyOf: ["reconciliation.write", "staff.reconciliation.write"], kind: "endpoint" },
  { pattern: "/dashboard/reconciliation/*/export", anyOf: ["reconciliation.read", "staff.reconciliation.read"], kind: "endpoint" },
  // A merchant's own dashboard.
  { pattern: "/dashboard", anyOf: ["payments.read"], kind: "page", nav: "Overview" },
  { pattern: "/dashboard/invoices/**", anyOf: ["invoices.read"], kind: "page", nav: "Invoices" },
  { pattern: "/dashboard/payments/export", anyOf: ["payments.read"], kind: "endpoint" },
  { pattern: "/dashboard/payments/**", anyOf: ["payments.read"], kind: "page", nav: "Payments" },
  { pattern: "/dashboard/refunds/export", anyOf: ["refunds.read"], kind: "endpoint" },
  { pattern: "/dashboard/refunds", anyOf: ["refunds.read"], kind: "page", nav: "Refunds" },
  { pattern: "/dashboard/reconciliation", anyOf: ["reconciliation.read"], kind: "page", nav: "Reconciliation" },
  { pattern: "/dashboard/webhooks/**", anyOf: ["webhooks.read"], kind: "page", nav: "Webhooks" },
  { pattern: "/dashboard/keys", anyOf: ["api_keys.read"], kind: "page", nav: "Keys" },
  { pattern: "/dashboard/team", anyOf: ["team.read"], kind: "page", nav: "Team" },
  { pattern: "/dashboard/settings", anyOf: ["merchant_profile.read"], kind: "page", nav: "Settings" },
  { pattern: "/dashboard/audit", anyOf: ["audit_log.read"], kind: "page", nav: "Audit log" },
  // The signed-in person's own sign-in security: second factors, sessions (every merchant role).
  { pattern: "/dashboard/account", anyOf: ["own_account.write"], kind: "page", nav: "Account" },
];

/** The entry deciding a path, or null for a path that is no page (the dashboard's 404, open to anyone signed in). */
export function dashboardRouteOf(pathname: string): DashboardRoute | null {
  const segments = split(pathname);
  return DASHBOARD_ROUTES.find((route) => matches(split(route.pattern), segments)) ?? null;
}

export type Access = { outcome: "allowed" } | { outcome: "sign_in" | "forbidden"; kind: DashboardRoute["kind"] };

/** May this signed-in role (null: nobody signed in) use this dashboard path? */
export function dashboardAccess(role: Role | null, pathname: string): Access {
  const route = dashboardRouteOf(pathname);
  const kind = route?.kind ?? "page";
  if (role === null) return { outcome: "sign_in", kind };
  if (route && !holdsAny(role, route.anyOf)) return { outcome: "forbidden", kind };
  return { outcome: "allowed" };
}

export type Audience = "merchant" | "staff";

const rolesOf = (audience: Audience) => ROLES.filter((role) => role.startsWith(audience === "merchant" ? "member:" : "staff:"));

/**
 * May some role of this audience use this path? The proxy's question: the cookie's role may be stale (changed,
 * or another merchant switched to), so it lets through what any role of the audience may open and the page's
 * own guard decides with the live role.
 */
export function audienceAccess(audience: Audience | null, pathname: string): Access {
  if (audience === null) return dashboardAccess(null, pathname);
  const answers = rolesOf(audience).map((role) => dashboardAccess(role, pathname));
  return answers.find((answer) => answer.outcome === "allowed") ?? answers[0]!;
}

/** Where an audience starts whatever its role: the first page every one of its roles may open. */
export function audienceHomeOf(audience: Audience): string {
  return audience === "staff" ? "/dashboard/staff" : "/dashboard";
}

/** The pages the role may open, in navigation order: the header's links. */
export function navigationOf(role: Role): { href: string; label: string }[] {
  return navigationWhere((route) => holdsAny(role, route.anyOf));
}

/** The navigation's pages that `opens` admits, in order (navigationOf; a session viewing as a merchant: auth/view-as.ts). */
export function navigationWhere(opens: (route: DashboardRoute) => boolean): { href: string; label: string }[] {
  return DASHBOARD_ROUTES.filter((route) => route.nav && opens(route)).map((route) => ({
    href: route.pattern.replace(/\/\*\*$/, ""),
    label: route.nav!,
  }));
}

/** Where the role starts: its first page in the navigation. */
export function homeOf(role: Role): string {
  return navigationOf(role)[0]?.href ?? "/dashboard";
}

function split(path: string): string[] {
  return path.split("/").filter(Boolean);
}

function matches(pattern: string[], path: string[]): boolean {
  if (pattern.length === 0) return path.length === 0;
  const [head, ...rest] = pattern;
  if (head === "**") return rest.length === 0 || path.some((_, i) => matches(rest, path.slice(i)));
  if (path.length === 0) return false;
  return (head === "*" || head === path[0]) && matches(rest, path.slice(1));
}
