import { z } from "zod";
import { email } from "../merchants/schemas";
import { password } from "../users/schemas";

/** A reset link works this long, once (docs/team-and-security.md, "Password reset"). */
export const RESET_LINK_LIFETIME_MS = 30 * 60_000;

export const requestResetInput = z.strictObject({ email });
export const resetPasswordInput = z.strictObject({ token: z.string().min(1, "is required").max(100), newPassword: password });
export type ResetPasswordInput = z.input<typeof resetPasswordInput>;

/** The page a reset link opens: the token in the query (the page sends no Referer: its referrer policy). */
export function resetLink(baseUrl: string, token: string): string {
  return `${baseUrl}/reset-password?token=${encodeURIComponent(token)}`;
}
