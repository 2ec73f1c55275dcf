/** A member's role in one merchant's team (docs/team-and-security.md, "Roles"). */
export const MEMBER_ROLES = ["owner", "admin", "developer", "support", "viewer"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** A support staff member's role in the console. */
export const STAFF_ROLES = ["support", "admin"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/**
 * The role that decides what a signed-in person may do, as the permission table names it: a member's role in the
 * merchant their session acts for (`member:…`), or a staff member's (`staff:…`). One string, so the session
 * cookie, the route guard and the tests carry it as is.
 */
export type Role = `member:${MemberRole}` | `staff:${StaffRole}`;

export const ROLES: readonly Role[] = [...MEMBER_ROLES.map((role) => `member:${role}` as const), ...STAFF_ROLES.map((role) => `staff:${role}` as const)];

export const memberRole = (role: MemberRole): Role => `member:${role}`;
export const staffRole = (role: StaffRole): Role => `staff:${role}`;

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** The member role a Role names, or null for staff. */
export function memberRoleOf(role: Role): MemberRole | null {
  return role.startsWith("member:") ? (role.slice("member:".length) as MemberRole) : null;
}
