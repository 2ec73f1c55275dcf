/**
 * A restricted API key's scopes (`rk_live_`/`rk_test_`, docs/team-and-security.md, "Restricted API keys"): per
 * resource `none | read | write`, `write` implying `read`. The resources and levels are declared here, below every
 * layer that needs them (the service that validates a new key's scopes, the REST pipeline that checks them, the
 * dashboard that offers them); src/server/auth/permissions.ts re-exports them beside the permission table, where
 * each resource's `.read` and `.write` are permissions. API keys themselves are not a resource here: a restricted
 * key never creates, rolls or revokes keys.
 */
export const RESTRICTED_KEY_RESOURCES = [
  "payments",
  "invoices",
  "refunds",
  "webhooks",
  "events",
  "reconciliation",
  "merchant_profile",
  "published_keys",
] as const;
export type RestrictedKeyResource = (typeof RESTRICTED_KEY_RESOURCES)[number];
export const SCOPE_LEVELS = ["none", "read", "write"] as const;
export type ScopeLevel = (typeof SCOPE_LEVELS)[number];

/** As stored with the key: only the resources it may touch (a resource left out is `none`). */
export type StoredScopes = Partial<Record<RestrictedKeyResource, Exclude<ScopeLevel, "none">>>;

/** Every resource with its level, `none` included: how a key's scopes are shown. */
export type RestrictedKeyScopes = Record<RestrictedKeyResource, ScopeLevel>;

/** The stored form of scopes as given: `none` dropped, unknown resources never reach here (validated before). */
export function storedScopes(scopes: Partial<Record<RestrictedKeyResource, ScopeLevel>>): StoredScopes {
  const stored: StoredScopes = {};
  for (const resource of RESTRICTED_KEY_RESOURCES) {
    const level = scopes[resource];
    if (level === "read" || level === "write") stored[resource] = level;
  }
  return stored;
}

/** Every resource with its level (`none` where the key has nothing). */
export function allScopes(stored: StoredScopes): RestrictedKeyScopes {
  return Object.fromEntries(RESTRICTED_KEY_RESOURCES.map((resource) => [resource, stored[resource] ?? "none"])) as RestrictedKeyScopes;
}

/**
 * The permissions (`payments.read`, `refunds.write`, …) the scopes grant: computed once when the key is verified
 * (it is cached), so checking a request is one set lookup.
 */
export function grantedPermissions(stored: StoredScopes): ReadonlySet<string> {
  const granted = new Set<string>();
  for (const resource of RESTRICTED_KEY_RESOURCES) {
    const level = stored[resource];
    if (level === "read" || level === "write") granted.add(`${resource}.read`);
    if (level === "write") granted.add(`${resource}.write`);
  }
  return granted;
}
