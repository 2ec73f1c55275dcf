import { z } from "zod";
import type { SessionUser } from "./session-user";
import type { UserRow } from "@/server/db/schema";
import { STAFF_ROLES, type MemberRole } from "@/lib/roles";
import { email } from "../merchants/schemas";

export const password = z.string().min(12, "must be at least 12 characters").max(1024);

export const loginInput = z.object({
  email,
  password: z.string().min(1).max(1024),
});
export type LoginInput = z.input<typeof loginInput>;

export const changePasswordInput = z.strictObject({
  currentPassword: z.string().min(1, "is required").max(1024),
  newPassword: password,
});
export type ChangePasswordInput = z.input<typeof changePasswordInput>;

export const createStaffInput = z.strictObject({
  email,
  password,
  name: z.string().trim().min(1).max(200).optional(),
  /** The console role; an operator's script makes admins unless told otherwise. */
  role: z.enum(STAFF_ROLES).default("admin"),
});
export type CreateStaffInput = z.input<typeof createStaffInput>;

/**
 * The signed-in person as the dashboard sees them: a staff member with their console role, or a merchant's user
 * acting for `membership`'s merchant with its role. Null for a merchant's user with no membership there (removed
 * from the team): they may not act for it.
 */
export function toSessionUser(
  row: Pick<UserRow, "id" | "email" | "role" | "staffRole">,
  membership: { merchantId: string | null; role: MemberRole | null } | null,
): SessionUser | null {
  // A staff row without a role (none should remain after the migration) gets the narrower one.
  if (row.role === "staff") return { id: row.id, email: row.email, role: "staff", merchantId: null, access: `staff:${row.staffRole ?? "support"}` };
  if (!membership?.merchantId || !membership.role) return null;
  return { id: row.id, email: row.email, role: "merchant", merchantId: membership.merchantId, access: `member:${membership.role}` };
}
