import { MEMBER_ROLES, ROLES, STAFF_ROLES, type MemberRole, type Role, type StaffRole } from "@/lib/roles";

export { MEMBER_ROLES, ROLES, STAFF_ROLES, type MemberRole, type Role, type StaffRole };

/**
 * What a dashboard user may do, named `<resource>.<read|write>` (a merchant's own data) or `staff.<…>` (support
 * staff, across merchants). The one table of who holds what: the route guard (dashboard-routes.ts), the layouts
 * the navigation, every tRPC procedure (trpc/init.ts) and the client's buttons read it, through `holds`/`may`
 * with the session's real role (src/lib/roles.ts: a member's role in the merchant the session acts for, or a staff
 * member's). docs/team-and-security.md's table is written from it (`npm run docs:permissions`).
 */
export const PERMISSIONS = [
  "payments.read",
  "payments.write",
  "invoices.read",
  "invoices.write",
  "refunds.read",
  "refunds.write",
  "reconciliation.read",
  "reconciliation.write",
  "webhooks.read",
  "webhooks.write",
  "events.read",
  "events.write",
  "published_keys.read",
  "published_keys.write",
  "api_keys.read",
  "api_keys.write",
  "merchant_profile.read",
  "merchant_profile.write",
  // The team: its members and invitations (read), inviting, removing and changing roles below owner (write);
  // `team.ownership`: making or unmaking owners and the team's sign-in rules (a second factor for everyone).
  "team.read",
  "team.write",
  "team.ownership",
  "audit_log.read",
  // Acting on the test mode's data: holding it grants, in test mode only, the `.write` of every TEST_MODE_RESOURCES.
  "test_mode.write",
  "staff.payments.read",
  "staff.merchants.read",
  "staff.reconciliation.read",
  "staff.reconciliation.write",
  "staff.refunds.write",
  // Retrying a merchant's webhook delivery for them; marking a merchant's invoice paid or void.
  "staff.deliveries.write",
  "staff.invoices.write",
  "staff.view_as",
  "staff.audit.read",
  "staff.system.read",
  "staff.account.write",
  // A merchant's user's own account: password, second factors, sessions. Not a permission on the merchant's data:
  // every merchant role holds it, whatever else it may do (staff's own is `staff.account.write`). See SELF_SERVICE.
  "own_account.write",
] as const;

export type Permission = (typeof PERMISSIONS)[number];

/**
 * Self-service procedures (the account router: password, second factors, sessions) need any one of these: a
 * merchant's user's own account, or a staff member's. They act on the signed-in user's own account only (the
 * verbs take the user from the session: `requireSelf` in services/context.ts), so no permission on any merchant's
 * data is involved, and every role of either audience must hold its one (a test checks it).
 */
export const SELF_SERVICE: readonly Permission[] = ["own_account.write", "staff.account.write"];

const MERCHANT_PERMISSIONS = PERMISSIONS.filter((permission) => !permission.startsWith("staff."));
const STAFF_PERMISSIONS = PERMISSIONS.filter((permission) => permission.startsWith("staff."));

/** The resources whose writes `test_mode.write` grants in test mode (a developer's test-mode tools). */
export const TEST_MODE_RESOURCES = ["payments", "invoices", "refunds", "reconciliation"] as const;

const reads = (...resources: string[]) => resources.map((resource) => `${resource}.read` as Permission);
const readsAndWrites = (...resources: string[]) => resources.flatMap((resource) => [`${resource}.read`, `${resource}.write`] as Permission[]);

/** Who holds what in a merchant's team. `own_account.write` is every role's (SELF_SERVICE). */
export const MEMBER_ROLE_PERMISSIONS: Record<MemberRole, ReadonlySet<Permission>> = {
  owner: new Set(MERCHANT_PERMISSIONS),
  admin: new Set(MERCHANT_PERMISSIONS.filter((permission) => permission !== "team.ownership")),
  developer: new Set<Permission>([
    ...readsAndWrites("api_keys", "webhooks", "events", "published_keys"),
    ...reads("payments", "invoices", "refunds", "merchant_profile", "team"),
    "test_mode.write",
    "own_account.write",
  ]),
  support: new Set<Permission>([
    ...reads("payments", "invoices", "merchant_profile", "team"),
    ...readsAndWrites("refunds", "reconciliation"),
    "own_account.write",
  ]),
  viewer: new Set<Permission>([
    ...reads("payments", "invoices", "refunds", "reconciliation", "webhooks", "events", "published_keys", "merchant_profile", "team"),
    "own_account.write",
  ]),
};

/** Who holds what in the support console. */
export const STAFF_ROLE_PERMISSIONS: Record<StaffRole, ReadonlySet<Permission>> = {
  support: new Set<Permission>([
    "staff.payments.read",
    "staff.merchants.read",
    "staff.reconciliation.read",
    "staff.refunds.write",
    "staff.deliveries.write",
    "staff.view_as",
    "staff.account.write",
  ]),
  admin: new Set(STAFF_PERMISSIONS),
};

/**
 * A restricted API key's scopes (`rk_live_`/`rk_test_`): per resource `none | read | write`, each granting the
 * resource's `.read` (and `.write`) permission above. A resource left out is `none`. API keys themselves are not
 * among them: a restricted key never creates, rolls or revokes keys. Declared in lib (restricted-key-scopes.ts) so
 * the services that validate and store a key's scopes can read them too.
 */
export { RESTRICTED_KEY_RESOURCES, SCOPE_LEVELS, type RestrictedKeyResource, type ScopeLevel } from "@/lib/restricted-key-scopes";

/**
 * A permission some inputs need beyond the one their route or procedure names: `when` the input does what it guards.
 * REST checks it once the body is parsed (a restricted key without it: 403 `insufficient_scope`, nothing changed)
 * and says it in the operation's description; tRPC checks it against the member's role.
 */
export interface InputPermission<Input> {
  permission: Permission;
  when: (input: Input) => boolean;
  /** What needs it, for the OpenAPI description: "changing `webhookUrl` or `webhookEvents`". */
  what: string;
}

/**
 * The profile's webhook settings are its default endpoint's (docs/webhooks.md, "Endpoints"): changing them needs
 * `webhooks.write` as well as `merchant_profile.write`, so a key or a role that may edit the profile but not the
 * webhooks cannot send the merchant's events to another URL (docs/team-and-security.md, "Restricted API keys").
 */
export const PROFILE_WEBHOOK_SETTINGS: InputPermission<{ webhookUrl?: unknown; webhookEvents?: unknown }> = {
  permission: "webhooks.write",
  when: (input) => input.webhookUrl !== undefined || input.webhookEvents !== undefined,
  what: "changing `webhookUrl` or `webhookEvents`",
};

/** What a role holds: its row of the member or the staff table. */
export function permissionsOf(role: Role): ReadonlySet<Permission> {
  const [audience, name] = role.split(":") as ["member" | "staff", string];
  return audience === "member" ? MEMBER_ROLE_PERMISSIONS[name as MemberRole] : STAFF_ROLE_PERMISSIONS[name as StaffRole];
}

export function holds(role: Role, permission: Permission): boolean {
  return permissionsOf(role)?.has(permission) ?? false;
}

/** True when the role holds any of them: a route served to two audiences names one permission for each. */
export function holdsAny(role: Role, permissions: readonly Permission[]): boolean {
  return permissions.some((permission) => holds(role, permission));
}

/**
 * May the role use `permission` in this mode? What it holds, and in test mode also the `.write` of every
 * TEST_MODE_RESOURCES when it holds `test_mode.write` (a developer creating test payments and refunds).
 */
export function may(role: Role, permission: Permission, livemode: boolean): boolean {
  if (holds(role, permission)) return true;
  return !livemode && holds(role, "test_mode.write") && (TEST_MODE_RESOURCES as readonly string[]).some((resource) => permission === `${resource}.write`);
}

/** Everything the role may use in this mode, in the table's order: what the client is told (it hides the rest). */
export function permissionList(role: Role, livemode: boolean): Permission[] {
  return PERMISSIONS.filter((permission) => may(role, permission, livemode));
}

/** The team services' questions about a member role (services/team: they sit below this table's layer). */
export const TEAM_RULES = {
  holds: (role: MemberRole, permission: "team.write" | "team.ownership") => holds(`member:${role}`, permission),
};
