import { createHash } from "node:crypto";
import { z } from "zod";
import type { SessionUser } from "@/server/auth/session";
import type { UserRow } from "@/server/db/schema";
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
});
export type CreateStaffInput = z.input<typeof createStaffInput>;

/**
 * A short digest of the password hash, kept in the session token: when the password changes, sessions
 * issued before no longer match and end. It is a hash of a salted hash, so it reveals nothing usable.
 */
export function credentialStamp(passwordHash: string): string {
  return createHash("sha256").update(passwordHash).digest("base64url").slice(0, 22);
}

export function toSessionUser(row: Pick<UserRow, "id" | "email" | "role" | "merchantId">): SessionUser {
  return { id: row.id, email: row.email, role: row.role, merchantId: row.role === "merchant" ? row.merchantId : null };
}
